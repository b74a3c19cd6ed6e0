#!/bin/sh
# mk/gpu-split.sh: after make gpu-build, move the examples (and NVIDIA's
# originals) from .gpu/ into .gpux/, a second bundle with the same runner,
# when .gpu/ and the tree together pass the 64 MiB a device run carries.
# Run .gpu/run.sh and .gpux/run.sh as two runs; each writes its report.
set -eu
[ -d .gpu/bin ] || { echo "gpu-split: no .gpu/: run make gpu-build first" >&2; exit 1; }
rm -rf .gpux
mkdir -p .gpux/bin
cp -r .gpu/lib .gpu/run.sh .gpu/libcuda.sh .gpu/report.py .gpu/commit .gpux/
mv .gpu/examples.txt .gpux/examples.txt
mv .gpu/originals.txt .gpux/originals.txt
[ -d .gpu/samples ] && mv .gpu/samples .gpux/
for f in .gpu/bin/ex-*.xz; do [ -e "$f" ] && mv "$f" .gpux/bin/; done
# Debian's CUPTI and cuFile 12 serve both: e2e's tests and cuptiTrace
for f in .gpu/bin/lib-*.xz; do [ -e "$f" ] && cp "$f" .gpux/bin/; done
: >.gpu/examples.txt
: >.gpu/originals.txt
: >.gpux/tests.txt
echo "gpu-split: .gpu/ $(du -sh .gpu | cut -f1) (tests), .gpux/ $(du -sh .gpux | cut -f1) (examples)"
