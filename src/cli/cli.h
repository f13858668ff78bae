/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_CLI_H
#define NFH_CLI_H

struct nfh_ctx;

/**
 * cli_run - the interactive shell of `nfh -i`
 *
 * Reads commands from standard input until quit, exit or end of input;
 * each line, or each block that closes its braces, is one transaction.
 * Return: 0 if every command succeeded, 1 if any failed
 */
int cli_run(struct nfh_ctx *ctx);

#endif
