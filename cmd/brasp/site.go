package main

const siteUsage = "site [--src DIR] DIR"

// siteCmd checks the arguments of site and builds the site in
// brasp-playground (playground.go).
func siteCmd(e *env, args []string) error {
	fs := newFlags(e, "site", siteUsage)
	src := fs.String("src", "", "build the WebAssembly module from the brasp checkout in `DIR` (default: the checkout around the working directory, or the module cache's copy of this version)")
	pos, err := parseFlags(e, fs, siteUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(siteUsage, "want one output directory")
	}
	pargs := []string{"site"}
	if *src != "" {
		pargs = append(pargs, "--src", *src)
	}
	return runPlayground(e, append(pargs, "--", pos[0]))
}
