package cuda

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestCloseRacesTexture: a Close of a Buffer, a Pitched or an Array racing
// the making of a texture over it ends one of two ways, and promptly:
// the Close refuses (ErrInUse) and the texture is made, or the Close
// frees and the texture is refused (ErrFreed). Was: a Buffer's or a
// Pitched's Close that checked for textures just before one was made
// went on to wait, inside Close, for the use the new texture holds: it
// returned only once that texture was closed (never, when the same
// goroutine was to close it next).
func TestCloseRacesTexture(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs 2 Ps to race")
	}
	_, c := newFake(t)
	defer c.Close()
	type subject struct {
		close func() error
		tex   func() (*Texture, error)
	}
	kinds := map[string]func() subject{
		"Buffer": func() subject {
			b, err := Alloc[float32](c, 64)
			if err != nil {
				t.Fatal(err)
			}
			return subject{b.Close, func() (*Texture, error) { return BufferTexture(b, TextureOptions{}) }}
		},
		"Pitched": func() subject {
			p, err := AllocPitched[float32](c, 8, 8)
			if err != nil {
				t.Fatal(err)
			}
			return subject{p.Close, func() (*Texture, error) { return PitchedTexture(p, TextureOptions{}) }}
		},
		"Array": func() subject {
			a, err := AllocArray[float32](c, ArrayDesc{Width: 8, Height: 8})
			if err != nil {
				t.Fatal(err)
			}
			return subject{a.Close, func() (*Texture, error) { return a.Texture(TextureOptions{}) }}
		},
	}
	for name, mk := range kinds {
		t.Run(name, func(t *testing.T) {
			deadline := time.Now().Add(1500 * time.Millisecond)
			var closedFirst, texFirst int
			for i := 0; time.Now().Before(deadline); i++ {
				s := mk()
				start := make(chan struct{})
				closed := make(chan error, 1)
				made := make(chan error, 1)
				var tex *Texture
				go func() {
					<-start
					closed <- s.close()
				}()
				go func() {
					<-start
					var err error
					tex, err = s.tex()
					made <- err
				}()
				close(start)
				terr := <-made
				var cerr error
				select {
				case cerr = <-closed:
				case <-time.After(time.Second):
					t.Errorf("round %d: a texture was made and the Close racing it waits for it to be closed", i)
					tex.Close()
					<-closed
					return
				}
				switch {
				case terr == nil && errors.Is(cerr, ErrInUse):
					texFirst++
					if err := tex.Close(); err != nil {
						t.Fatal(err)
					}
					if err := s.close(); err != nil {
						t.Fatalf("round %d: Close after the texture's: %v", i, err)
					}
				case errors.Is(terr, ErrFreed) && cerr == nil:
					closedFirst++
				default:
					t.Fatalf("round %d: texture: %v; Close: %v", i, terr, cerr)
				}
			}
			t.Logf("%d rounds closed first, %d made the texture first", closedFirst, texFirst)
		})
	}
}
