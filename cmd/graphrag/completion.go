package main

import "github.com/spf13/cobra"

// Shell completion comes from cobra: `graphrag completion bash|zsh|fish|powershell`
// prints a script (see each one's --help, and the README's "Daily use").
// Commands register the values their flags take with completeWords.

// completeWords offers words as the completions of a flag's value.
func completeWords(cmd *cobra.Command, flag string, words ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	})
}
