// Package browsertest starts headless Chromium for end-to-end tests of the
// HTML page (chromedp, over a pipe; no network).
//
// Without Chromium a test fails when $CI is "true" (CI must run it: `make
// test` installs Chromium through `make browser-tools`) and skips otherwise,
// saying how to install it.
//
// Only _test.go files import it. It must never fetch a browser or reach the
// network: Chromium comes from Debian's package, installed by the Makefile.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path returns the Chromium executable: $FLUXWATCH_CHROMIUM, else the first
// of chromium, chromium-browser, google-chrome on $PATH; "" when none.
func Path() string {
	if p := os.Getenv("FLUXWATCH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// New starts a headless Chromium with a fresh profile and returns a context
// for one tab of it, with a deadline of timeout. The browser ends with the
// test.
func New(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	path := Path()
	if path == "" {
		const how = "Chromium is not installed (make browser-tools installs Debian's chromium package)"
		if os.Getenv("CI") == "true" {
			t.Fatal(how + "; CI must run the browser tests")
		}
		t.Skip(how + "; skipping the browser test")
	}
	// This machine's network is closed: without these flags Chromium stalls
	// on its background requests.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	ctx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		cancelTimeout()
	})
	// Start the browser now, so that a test's first step does not pay for it.
	if err := chromedp.Do(tctx); err != nil {
		t.Fatalf("start Chromium (%s): %v", path, err)
	}
	return tctx
}
