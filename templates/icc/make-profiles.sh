#!/bin/sh
# How the two CMYK output profiles in this folder were made (see README.md here).
# Needs ArgyllCMS (Debian: apt-get install argyll; made with colprof 2.3.1) and the CGATS
# characterization data sets TR003.ti3 and TR006.ti3 (Debian: apt-get install icc-profiles-free,
# /usr/share/color/icc/). Same data and Argyll version → the same tables.
set -eu
DATA=${DATA:-/usr/share/color/icc}
SRGB=${SRGB:-/usr/share/color/argyll/ref/sRGB.icm}
work=$(mktemp -d)
cp "$DATA/TR003.ti3" "$DATA/TR006.ti3" "$work/"
here=$(cd "$(dirname "$0")" && pwd)
cd "$work"
# -ql: low-quality (small) tables, 140 KB a profile, average error 0.4 ΔE against the data;
# -kr: black generation "ramp"; -l: total ink limit (%); -S/-cmt/-dpp: perceptual tables mapped from sRGB.
colprof -ql -kr -l240 -S "$SRGB" -cmt -dpp -A "ppgen" -M "SWOP TR 003" \
  -D "SWOP 2006 Coated 3 (CGATS TR 003), 240% total ink, ppgen" \
  -C "CC0 1.0; characterization data: ANSI/CGATS/SWOP TR 003-2007" -O ppgen-swop-tr003-240.icc TR003
colprof -ql -kr -l320 -S "$SRGB" -cmt -dpp -A "ppgen" -M "GRACoL TR 006" \
  -D "GRACoL 2006 Coated 1 (CGATS TR 006), 320% total ink, ppgen" \
  -C "CC0 1.0; characterization data: ANSI/CGATS/GRACoL TR 006-2007" -O ppgen-gracol-tr006-320.icc TR006
cp ppgen-swop-tr003-240.icc ppgen-gracol-tr006-320.icc "$here/"
