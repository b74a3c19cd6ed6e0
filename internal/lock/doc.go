// Package lock reads, writes, fetches and verifies headers.lock, the file
// that pins every NVIDIA file cugen reads: the CUDA header sets it parses
// and the library packages its tests load.
//
// NVIDIA's files are never committed. A header set comes either from a
// Debian package (non-free or contrib, CUDA's; main, CCCL's; downloaded
// with apt through a private source list, never the system's) or from a
// CUDA toolkit installed on some machine (verified in place, never
// downloaded). Either way every header
// the parser opens is listed in headers.lock with its sha256, so two
// machines that agree on headers.lock parse the same bytes. cugen holds the
// parse to this: with -set, every file the parser reads from the set's
// directory must be listed in the entry, with the sha256 of the bytes it
// parses (parser.Options.Pinned), or the run fails naming each file that is
// not. System headers (the C library's) are not pinned; a set's directory
// cannot replace them.
//
// # Format
//
// headers.lock is line oriented and meant to be read in a diff:
//
//	# comment (Format drops comments and writes its own preamble)
//
//	set 12.4
//		cuda 12.4.1
//		deb nvidia-cuda-dev 12.4.127~12.4.1-2 amd64 trixie d846...3ee0
//		root usr/include
//		sha256 8c1b...9d2e cuda.h
//		sha256 07aa...41f0 crt/host_defines.h
//
//	set 13.0
//		cuda 13.0.0
//		toolkit
//		note generated on the GPU machine from the toolkit's include directory
//		sha256 5e02...77c1 cuda.h
//
//	headers libnccl-dev
//		deb libnccl-dev 2.22.3-1-1 amd64 trixie 260d...b8dc
//		root usr/include
//		sha256 3141...2f11 nccl.h
//
//	lib libcudart12
//		deb libcudart12 12.4.127~12.4.1-2 amd64 trixie 361b...4130
//		root usr/lib/x86_64-linux-gnu
//		sha256 1a2b...3c4d libcudart.so.12
//
// An entry starts with "set NAME" (a header set, named by the CUDA
// version it is selected by, as in `make headers CUDA=12.4`), "headers
// NAME" (a package of more headers that sets read beside their own: nccl.h
// is in no toolkit package) or "lib NAME" (a library package used by
// tests). The lines after it, up to the next entry, are "KEY VALUE..."
// with any leading white space:
//
//	cuda VERSION                            the CUDA toolkit version (sets only, required)
//	deb PACKAGE VERSION ARCH SUITE SHA256   Debian origin: the exact .deb and its sha256; ARCH all
//	                                        for a package of headers only (CCCL's), fetched
//	                                        through the machine's architecture's index
//	toolkit                                 toolkit origin: no package, files verified in place
//	wheel PACKAGE VERSION HOMEVAR           wheel origin (headers entries only): NVIDIA's pip wheel,
//	                                        never downloaded, files verified in place in
//	                                        $HOMEVAR/include (cuDNN: CUDNN_HOME, the wheel's
//	                                        site-packages/nvidia/cudnn)
//	root PATH                               directory inside the .deb that is extracted; for a
//	                                        toolkit headers entry, the toolkit's directory its
//	                                        files are in (nvvm/include; default include)
//	with NAME                               a headers entry the set's parse also reads (sets only;
//	                                        any number, searched in order after the set's directory)
//	note TEXT                               free text, kept in order by Format
//	sha256 HASH PATH                        one per file, PATH relative to root (or to the
//	                                        toolkit's include directory); at least one
//
// NAME becomes a directory name in the cache, so it is one path element:
// letters, digits and "._+-", starting with a letter or digit ([CheckName]);
// "..", "." or "a/b" is an error when the lock is read. The deb fields
// (part of a file name in the cache) follow the same rule, with "~" and ":".
// Exactly one of deb and toolkit is required; lib entries need deb. A
// headers entry of toolkit origin is read by toolkit sets only, from the
// toolkit the set's include directory is verified in: CUDA 13's nvvm.h is
// in the toolkit's nvvm/include, outside include, so set 13.0 reads it
// through one ("headers NAME", "toolkit", "root nvvm/include"). A set's files and those of its headers entries are pinned apart,
// each relative to its own root, and `cugen lock -set NAME` rewrites both;
// [Lock.FetchSetEntry] makes them ready for a parse, and the set's identity
// in generated files ([Lock.SetDigest]) covers them all. Paths are slash
// separated, relative, without "." or ".." elements or white space. Blank
// lines and lines starting with # are ignored.
//
// A set name "SET+NAME" ([Lock.Entry]) is set SET reading the headers
// entry NAME too, for this parse only: `cugen ir -set 12.4+cudnn9` parses
// CUDA 12.4 with cuDNN's headers, which `-set 12.4` (every machine's
// make generate) does not need. Its digest covers both entries.
//
// [Format] writes the canonical form: the fixed preamble, sets in version
// order, then headers and libs entries in name order, each entry's lines
// in the order above, files sorted by path, a tab before each line of an
// entry and a blank line between entries. Parse followed by Format gives back the same bytes for
// any canonical file; a test checks that the committed headers.lock is.
//
// # Cache
//
// [Fetch] keeps everything under one cache directory, by default
// ${CUGEN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cugen} ([DefaultCacheDir]):
//
//	apt/                      private apt state: sources.list.d/, lists/, cache/
//	debs/P_V_A.deb            downloaded packages, named as apt-get download names them
//	headers/SET/ROOT/         extracted header sets
//	extra-headers/NAME/ROOT/  extracted headers entries
//	libs/NAME/ROOT/           extracted library packages
//
// An extracted directory is only ever created by renaming a fully extracted
// and verified temporary directory into place, so a crash leaves either the
// old directory or the new one. Directories are created 0755 and files
// keep the .deb's modes (both less the umask), so one cache can be shared
// between users. Fetch only ever removes entries strictly inside the
// cache's debs/, headers/, extra-headers/ and libs/ directories (its
// temporary and replaced directories), never the cache itself or anything
// outside it.
// Every file of the cache is read as hostile input, through the reader the
// parser reads headers with (internal/bounded): a regular file, opened
// without blocking, within the size its kind may have (a header 4 MiB, a
// library file 2 GiB, a .deb 4 GiB), and no symbolic link that leaves its
// entry's directory; [Verify] names any other file and never waits on it.
// When the extracted files already verify,
// Fetch neither runs apt nor touches the network.
//
// The Debian mirror is the one the machine's own apt sources use
// (/etc/apt/sources.list.d/*.sources, /etc/apt/sources.list), or
// $CUGEN_DEBIAN_MIRROR, or else Debian's main archive. Fetch needs apt-get,
// dpkg-deb and tar, and debian-archive-keyring for the signatures.
package lock
