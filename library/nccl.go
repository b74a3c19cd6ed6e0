package library

import "github.com/cugen/cugen/parser/ir"

// NCCL is NVIDIA's collective communication library: package nccl,
// libnccl.so.2. Its soname is the same for every CUDA major, but each copy
// is built for one (pip's nvidia-nccl-cu12 and nvidia-nccl-cu13), and
// nccl.h comes with NCCL, not with the toolkit: headers.lock adds Debian's
// libnccl-dev to the sets that bind it.
var NCCL = &Desc{
	Key:         "nccl",
	API:         "NCCL",
	Title:       "NCCL",
	Package:     "nccl",
	Imports:     []ir.Library{ir.Runtime},
	Include:     []string{"nccl.h"},
	Declare:     []string{"nccl.h"},
	Prefixes:    []string{"NCCL_", "nccl"},
	Status:      "ncclResult_t",
	ErrorString: "ncclGetErrorString",
	PlainDocs:   true,
	// libnccl exports pnccl* twins of every function for profilers.
	InterposePrefix: "p",
	// "Config initializer must be assigned to initialize config structure
	// when it is created. Not initialized config will result in NCCL error."
	Initializers: map[string]string{
		"NCCL_CONFIG_INITIALIZER":   "ncclConfig_t",
		"NCCL_SIM_INFO_INITIALIZER": "ncclSimInfo_t",
	},
	Load: Load{
		Name:     "NCCL (CUDA %d)",
		EnvVar:   "CUGEN_LIBNCCL",
		Files:    map[int][]string{12: {"libnccl.so.2"}, 13: {"libnccl.so.2"}},
		Wheels:   map[int][]string{12: {"nvidia/nccl/lib"}, 13: {"nvidia/nccl/lib"}},
		Pip:      map[int]string{12: "nvidia-nccl-cu12", 13: "nvidia-nccl-cu13"},
		Apart:    "NCCL (NVIDIA's libnccl2 package)",
		Identify: "ncclGetVersion",
	},
	// nccl.h's plain comments say what a function returns in prose the
	// output rules do not read; each output is named here.
	Overrides: Overrides{
		Directions: map[string]DirectionOverride{
			"ncclGetVersion.version":           {Dir: ir.Out, Why: `"Return the NCCL_VERSION_CODE ... in the supplied integer"`},
			"ncclGetUniqueId.uniqueId":         {Dir: ir.Out, Why: `"Generates an Id to be used in ncclCommInitRank"`},
			"ncclCommInitRank.comm":            {Dir: ir.Out, Why: `"Creates a new communicator"`},
			"ncclCommInitRankConfig.comm":      {Dir: ir.Out, Why: `"Create a new communicator"`},
			"ncclCommSplit.newcomm":            {Dir: ir.Out, Why: `"Creates one or more communicators from an existing one"; NULL for NCCL_SPLIT_NOCOLOR`},
			"ncclCommGetAsyncError.asyncError": {Dir: ir.Out, Why: `"Checks whether the comm has encountered any asynchronous errors": the error found`},
			"ncclCommCount.count":              {Dir: ir.Out, Why: `"Gets the number of ranks"`},
			"ncclCommCuDevice.device":          {Dir: ir.Out, Why: `"Returns the cuda device number"`},
			"ncclCommUserRank.rank":            {Dir: ir.Out, Why: `"Returns the user-ordered rank"`},
			"ncclMemAlloc.ptr":                 {Dir: ir.Out, Why: "the allocation, as cudaMalloc's devPtr"},
			"ncclCommRegister.handle":          {Dir: ir.Out, Why: "the registration handle ncclCommDeregister takes"},
			"ncclRedOpCreatePreMulSum.op":      {Dir: ir.Out, Why: `"the newly created operator's handle is stored in *op"`},
			// Newer than the locked 2.22.3 header: for bindings made with
			// -with from an installed NCCL (2.28 has them).
			"ncclCommShrink.newcomm":           {Dir: ir.Out, Why: `"Shrink existing communicator": the new communicator`},
			"ncclCommInitRankScalable.newcomm": {Dir: ir.Out, Why: `"Creates a new communicator"`},
			"ncclCommWindowRegister.win":       {Dir: ir.Out, Why: `"Register memory window": the window ncclCommWindowDeregister takes`},
		},
		Arrays: map[string]ArrayOverride{
			"ncclCommInitAll.comm":             {Param: "ndev", Why: `"Returns an array of ndev newly initialized communicators in comm"`},
			"ncclCommInitAll.devlist":          {Param: "ndev", Why: `"Order of devlist defines user-order of processors"; NULL: the first ndev devices`},
			"ncclCommShrink.excludeRanksList":  {Param: "excludeRanksCount", Why: `"Ranks in excludeRanksList will be removed"`},
			"ncclCommInitRankScalable.commIds": {Param: "nId", Why: `"more than one ncclUniqueId (up to one per rank), indicated by nId"`},
		},
	},
	LockLibs: []string{"libnccl2"},
}
