// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the JSON front end (parser_json.c), then the same offline
 * apply and listing as fuzz-text; tests/fuzz/run seeds it with the suite's
 * rule files listed as JSON.
 */
#define FUZZ_JSON 1
#include "fuzz-text.c"
