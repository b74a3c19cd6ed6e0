package bounded

// Windows has no O_NOFOLLOW or O_NONBLOCK: the link check before the open
// (resolveIn) is all there is, and regular files never block.
const (
	oNoFollow = 0
	oNonblock = 0
)
