#!/bin/sh
# Build the blog recipes in examples/ against this checkout's web/dist and screenshot them
# (tools/blog_shots.js, shots in /tmp/posenc-shots/). For maintainers; not part of CI.
#   tools/blog_recipes.sh [hugo] [vitepress]      (both when none is named)
# Needs web/dist (`npx vite build web`), the posenc-view tarball (`./build.sh element`; installed
# into each scratch copy, as the package is not on npm yet), /usr/bin/chromium, and for each recipe
# its tool: Hugo (the Debian package `hugo`, installed here with apt-get when missing and run as
# root), VitePress (npm, installed into the scratch copy).
set -eu
cd "$(dirname "$0")/.."
[ -f web/dist/index.html ] || { echo "web/dist missing: run npx vite build web" >&2; exit 1; }
version=$(node -p 'require("./package.json").version')
tgz=$PWD/build/posenc-view-$version.tgz
[ -f "$tgz" ] || { echo "$tgz missing: run ./build.sh element" >&2; exit 1; }
work=$(mktemp -d /tmp/posenc-recipes.XXXXXX)
trap 'rm -rf "$work"' EXIT
which=${*:-hugo vitepress}
status=0
for r in $which; do
  case $r in
    hugo)
      if ! command -v hugo >/dev/null; then
        if [ "$(id -u)" = 0 ]; then apt-get install -y hugo >/dev/null; else echo "hugo missing: apt-get install hugo" >&2; status=1; continue; fi
      fi
      cp -r examples/hugo "$work/hugo"
      mkdir -p "$work/hugo/static" && cp -r web/dist "$work/hugo/static/posenc"
      (cd "$work/hugo" && npm install --no-audit --no-fund --silent "$tgz" && hugo --quiet -d public)
      node tools/blog_shots.js hugo "$work/hugo/public" /posts/positional-encoding/ || status=1
      ;;
    vitepress)
      cp -r examples/vitepress "$work/vitepress"
      mkdir -p "$work/vitepress/docs/public" && cp -r web/dist "$work/vitepress/docs/public/posenc"
      (cd "$work/vitepress" && npm install --no-audit --no-fund --silent "$tgz" && npm install --no-audit --no-fund --silent && npx vitepress build docs >/dev/null)
      node tools/blog_shots.js vitepress "$work/vitepress/docs/.vitepress/dist" /posts/element.html /posts/iframe.html || status=1
      ;;
    *) echo "unknown recipe $r (hugo, vitepress)" >&2; status=1 ;;
  esac
done
exit $status
