package ir

// Doc is a declaration's Doxygen comment, parsed once by the parser: emit
// renders it without reading Doxygen.
//
// Text is plain text: Doxygen's aliases are expanded, HTML entities decoded,
// emphasis (\e, \b, \c, <b>, <tt>, ...) and line breaks (\n, <br>) removed.
// Two inline forms are kept because a renderer gives them a meaning:
// "::name" refers to a C declaration (a function, type or constant) and
// "\p name" to a parameter of the function the comment documents.
type Doc struct {
	// Brief is the \brief paragraph, on one line.
	Brief string `json:"brief,omitempty"`
	// Body is the description, in the order the header gives it.
	Body []Block `json:"body,omitempty"`
	// Params are the \param entries, in order, as written (a name need not
	// be one of the declaration's parameters).
	Params []ParamDoc `json:"params,omitempty"`
	// Returns is the \return (\returns) text: for most CUDA functions the
	// list of result codes, "::CUDA_SUCCESS, ::CUDA_ERROR_..."
	Returns string `json:"returns,omitempty"`
	// Notes are the \note paragraphs and the note aliases (\notefnerr, ...)
	// expanded, in order.
	Notes []string `json:"notes,omitempty"`
	// SeeAlso are the names of \sa and \see, without "::" or "()".
	SeeAlso []string `json:"see_also,omitempty"`
	// Deprecated is set by \deprecated; DeprecatedText is its paragraph,
	// empty for a bare \deprecated.
	Deprecated     bool   `json:"deprecated,omitempty"`
	DeprecatedText string `json:"deprecated_text,omitempty"`
}

// BlockKind says what a Block of a description is.
type BlockKind string

const (
	Paragraph BlockKind = "paragraph"
	List      BlockKind = "list"  // "- item" lines, <li> items
	Code      BlockKind = "code"  // \code ... \endcode, verbatim
	Table     BlockKind = "table" // <table>: rows of cells
)

// Block is one paragraph, list or code block of a description.
type Block struct {
	Kind BlockKind `json:"kind"`
	// Text is a paragraph on one line, or a code block's lines verbatim.
	Text string `json:"text,omitempty"`
	// Items are a list's items, each on one line (nested items flattened).
	Items []string `json:"items,omitempty"`
	// Rows are a table's rows, each a list of cells (the first row is the
	// header, if the table has one).
	Rows [][]string `json:"rows,omitempty"`
}

// ParamDoc is one \param entry.
type ParamDoc struct {
	Name string `json:"name"`
	// Dir is the \param[dir] tag as written ("in", "out", "in,out"), or "".
	Dir  string `json:"dir,omitempty"`
	Text string `json:"text,omitempty"`
}

// Empty reports whether d says nothing (nil is empty).
func (d *Doc) Empty() bool {
	return d == nil || d.Brief == "" && len(d.Body) == 0 && len(d.Params) == 0 && d.Returns == "" &&
		len(d.Notes) == 0 && len(d.SeeAlso) == 0 && !d.Deprecated
}
