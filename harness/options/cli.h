/* SPDX-License-Identifier: MIT */
/*
 * cli.h - the one option table of bench and the parser every subcommand
 * uses. Each option is one entry of cli_options[] (cli_table.c): its name,
 * short flag, kind of value (which picks the parser), default, help and the
 * subcommands that take it. From the table come the parsing, the wording of
 * every mistake, each --help, the man page (help2man reads --help) and the
 * bash completion (bench --completion bash).
 *
 * Adding an option: one entry in cli_options[] (with an id in enum cli_id)
 * holding its default, and where its value lands: a field (CLI_FIELD) or a
 * case on the id in the subcommand's apply function.
 */
#ifndef COPYBENCH_CLI_H
#define COPYBENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_LIST_MAX 32

/*
 * The subcommands of bench history, one line each, in the order bench
 * history --help lists them: SUB(id, name, function, synopsis, summary) runs
 * `bench history NAME` with the static
 * int function(int argc, char **argv, const struct history_io *io) of
 * harness/cli/cmd_history.c (argv[0] the name; it returns the exit status);
 * the synopsis follows `bench history NAME` in the usage of bench history
 * --help (a \n goes on under its first word), and the summary is its
 * "NAME: summary" there. They take their places in CLI_COMMAND_LIST after
 * CMD_HISTORY, named "history NAME". Adding one: its function and one line
 * here; its own --help says more with an entry in cli_commands[]
 * (cli_table.c), and the options it takes name it with CLI_ON(id).
 */
#define CLI_HISTORY_LIST(SUB) \
	SUB(CMD_HADD, "add", hadd_cli, "DIR... [--commit SHA] [--branch NAME] [--label K=V]...", "results folders into the history (each once), commit and branch from git unless given.") \
	SUB(CMD_HCHECK, "check", hcheck_cli, "--current DIR [--branch NAME] [--window N] [--threshold PCT]\n[--spread Z] [--allow-missing] [--format table|markdown|csv|json]", "each case of DIR against its last N runs on the same host, kernel, filesystem and build.") \
	SUB(CMD_HCHANGES, "changes", hchanges_cli, "[--case GLOB] [--branch NAME] [--alpha P] [--threshold PCT]", "the commits where a case's level shifted.") \
	SUB(CMD_HPLOT, "plot", hplot_cli, "[--case GLOB] [--branch NAME] [--out DIR]", "median MiB/s over commits, per workload.") \
	SUB(CMD_HEXPORT, "export", hexport_cli, "[--format csv] [--table samples|syscalls|runs] [--out FILE]", "a table of the database as CSV.")

/*
 * Every subcommand of bench, one line each, in the order bench --help lists
 * them: COMMAND(id, name, function, summary) runs `bench NAME` with
 * int function(int argc, char **argv) (argv[0] the name; it returns the exit
 * status), and --help's list of commands gives it the summary line;
 * SUB(id, name, function, synopsis, summary) is a subcommand of history,
 * one line of CLI_HISTORY_LIST (above).
 * Adding a subcommand: its file (harness/cli/cmd_<name>.c) and one line here;
 * its --help says more with an entry in cli_commands[] (cli_table.c).
 */
#define CLI_COMMAND_LIST(COMMAND, SUB) \
	COMMAND(CMD_RUN, "", cmd_run, NULL) \
	COMMAND(CMD_LIST, "list", cmd_list, "strategies, channels, workloads; whether each can run here") \
	COMMAND(CMD_COPY, "copy", cmd_copy, "one verified copy of SRC to DST with one strategy") \
	COMMAND(CMD_GEN, "gen", cmd_gen, "write a dataset file") \
	COMMAND(CMD_EVICT, "evict", cmd_evict, "drop files from the page cache (no root needed)") \
	COMMAND(CMD_CHECK, "check", cmd_check, "compare two results folders (or a baseline) for regressions") \
	COMMAND(CMD_AB, "ab", cmd_ab, "compare two bench builds in one invocation, pair by pair") \
	COMMAND(CMD_BASELINE, "baseline", cmd_baseline, "store a compact baseline of a results folder, to commit") \
	COMMAND(CMD_PLOT, "plot", cmd_plot, "draw the charts of a results folder with gnuplot") \
	COMMAND(CMD_CLEAN, "clean", cmd_clean, "remove the datasets, work directories and test filesystems bench left") \
	COMMAND(CMD_HISTORY, "history", cmd_history, "results over commits in an SQLite file (bench history --help)") \
	CLI_HISTORY_LIST(SUB) \
	COMMAND(CMD_COLUMNS, "columns", cmd_columns, "the result columns, as Markdown")

#define CLI_CMD_ID(id, ...) id,
/* The subcommands; bit CLI_ON(c) of an option's cmds says c takes it. */
enum cli_cmd {
	CLI_COMMAND_LIST(CLI_CMD_ID, CLI_CMD_ID)
	CMD_COUNT
};
#define CLI_ON(c) (1u << (c))
#define CLI_ALL ((1u << CMD_COUNT) - 1)
/* Every subcommand of bench history. */
#define CLI_HISTORY_ON(id, ...) | CLI_ON(id)
#define CLI_HISTORY_SUBS (0 CLI_HISTORY_LIST(CLI_HISTORY_ON))

/* What an option's value is; each kind has one parser (cli.c). */
enum cli_arg {
	ARG_NONE,	/* a flag */
	ARG_STRING,	/* any non-empty text: a path, a name, a glob */
	ARG_NAMES,	/* a,b,c: non-empty names */
	ARG_SIZES,	/* 4K,64M: sizes above zero */
	ARG_COUNTS,	/* 1,5000: whole numbers, zero allowed */
	ARG_SIZE,	/* one size, at least min */
	ARG_COUNT,	/* one whole number from min to max */
	ARG_NUMBER,	/* one number from min to max */
	ARG_PERCENT,	/* 5% or 5: a percentage from min to max, stored /100 */
	ARG_FRACTION,	/* strictly between 0 and 1 */
	ARG_CHOICE,	/* one of choices */
};

/*
 * Where a parsed value lands (CLI_FIELD): the member of the subcommand's
 * options struct (cli_parser.ctx), by its type. An option without one is
 * stored by the subcommand's apply function, its setter.
 */
enum cli_store { STORE_NONE, STORE_BOOL, STORE_UINT, STORE_U64, STORE_DOUBLE, STORE_STR,
		 STORE_NAMES, STORE_LIST };

#define CLI_STORE_OF(member) _Generic((member), bool: STORE_BOOL, unsigned: STORE_UINT, \
	uint64_t: STORE_U64, double: STORE_DOUBLE, const char *: STORE_STR, \
	struct str_list: STORE_NAMES, struct u64_list: STORE_LIST)
/* .field of an entry: member of type (an enum is stored as its index). */
#define CLI_FIELD(type, member) \
	{ .off = offsetof(type, member), .store = CLI_STORE_OF(((type *)0)->member) }

struct cli_field {
	size_t off;
	enum cli_store store;
};

/* What the completion offers for a value. */
enum cli_complete { COMPLETE_NONE, COMPLETE_FILE, COMPLETE_DIR, COMPLETE_STRATEGY,
		    COMPLETE_WORKLOAD, COMPLETE_CHOICES };

enum cli_id {
	OPT_HELP, OPT_VERSION, OPT_COMPLETION,
	OPT_HELP_MARKDOWN,
	/* bench [options]: what to run */
	OPT_ALL, OPT_WORKLOAD, OPT_STRATEGY, OPT_SOURCE, OPT_DATASET, OPT_SIZE, OPT_FILES,
	OPT_BUFFER, OPT_PART_SIZE, OPT_BATCH_LINES, OPT_QUEUE_DEPTH, OPT_THREADS,
	OPT_FSYNC, OPT_COMMAND, OPT_COMMAND_TIMEOUT,
	/* how to measure */
	OPT_REPEAT, OPT_BUDGET, OPT_MAX_RUNS, OPT_WARMUP, OPT_CACHE, OPT_DESTINATION, OPT_DROP_CACHES,
	OPT_TUNE,
	OPT_SYSCALLS, OPT_NO_LIMITS, OPT_SEED,
	/* where */
	OPT_DIR, OPT_LIST_DIR, OPT_OUT, OPT_OUT_FORCE, OPT_CLEAN_DRY_RUN, OPT_FS, OPT_FS_SIZE, OPT_FORMAT, OPT_EXPORT_JSON,
	OPT_EXPORT_CSV, OPT_EXPORT_MARKDOWN, OPT_PLOT, OPT_DRY_RUN, OPT_QUIET,
	/* subcommands */
	OPT_LIST_FORMAT, OPT_COPY_STRATEGY, OPT_COPY_BUFFER, OPT_FORCE, OPT_COUNT_SYSCALLS, OPT_COPY_TIME, OPT_COPY_SERVE,
	OPT_BASELINE, OPT_CURRENT, OPT_THRESHOLD, OPT_ALPHA, OPT_VS, OPT_ABSOLUTE,
	OPT_CI, OPT_ONLY_SYSCALLS, OPT_IGNORE_SYSCALLS, OPT_ALLOW_MISSING,
	OPT_UNCORRECTED, OPT_CHECK_FORMAT, OPT_PLOT_OUT, OPT_MARKDOWN,
	OPT_DB, OPT_COMMIT, OPT_BRANCH, OPT_LABEL, OPT_HCURRENT, OPT_WINDOW,
	OPT_SPREAD, OPT_CASE, OPT_EXPORT_FORMAT, OPT_TABLE, OPT_EXPORT_OUT,
	/* bench ab */
	OPT_AB_STRATEGY, OPT_AB_SIZE, OPT_AB_DATASET, OPT_AB_CACHE, OPT_ROUNDS, OPT_AB_WARMUP,
	OPT_AB_THRESHOLD, OPT_AB_ALPHA, OPT_AB_DIR, OPT_CSV, OPT_AB_FORMAT, OPT_AB_SEED, OPT_WALL,
	OPT_AB_MAX_TIME,
	OPT_ID_COUNT
};

/* Groups of the run's --help. */
enum cli_group { GROUP_WHAT, GROUP_HOW, GROUP_WHERE, GROUP_GENERAL };

struct cli_option {
	enum cli_id id;
	const char *name;		/* long name, without -- */
	char short_name;		/* 0: none */
	enum cli_arg arg;
	const char *metavar;		/* LIST, SIZE, N, FILE ... */
	/*
	 * The default: a value of the option's kind, stored (field, or the
	 * apply function) before the command line is parsed, and shown by
	 * --help; def_note is shown after it ("1; the first also counts
	 * syscalls"). A default that is not one value ("the strategy's") is
	 * def_text: shown, never parsed. NULL: none.
	 */
	const char *def;
	const char *def_note;
	const char *def_text;
	const char *help;		/* may hold \n for more lines */
	unsigned cmds;			/* CLI_ON() of each subcommand taking it */
	enum cli_group group;
	double min, max;		/* ARG_SIZE, ARG_COUNT, ARG_NUMBER, ARG_PERCENT */
	const char *const *choices;	/* ARG_CHOICE: NULL-terminated */
	enum cli_complete complete;
	struct cli_field field;		/* CLI_FIELD(), or none */
};

/* What a subcommand's --help says around the option list (its name and
 * summary are its line of CLI_COMMAND_LIST). */
struct cli_command {
	enum cli_cmd cmd;
	const char *usage;		/* "usage: bench check ..." (lines); NULL:
					 * usage: bench NAME [options] */
	const char *about;		/* paragraphs after the usage */
	const char *operands;		/* operand descriptions, or NULL */
	const char *exit1;		/* what exit 1 means here */
	const char *epilogue;		/* examples and notes, or NULL */
	/* A gate's outcomes (bench check, ab, history check): what exit 0
	 * means when not "success", and exit 3 (inconclusive), or NULL. */
	const char *exit0, *exit3;
	/* The environment variables it reads (after the list of commands of
	 * bench --help), or NULL. */
	const char *environment;
};

struct str_list {
	size_t n;
	const char *v[CLI_LIST_MAX];
};

struct u64_list {
	size_t n;
	uint64_t v[CLI_LIST_MAX];
};

/* An option's value, parsed by its kind. */
struct cli_value {
	const char *str;		/* as given (NULL for a flag) */
	uint64_t u;			/* ARG_SIZE, ARG_COUNT */
	double d;			/* ARG_NUMBER, ARG_PERCENT, ARG_FRACTION */
	int choice;			/* ARG_CHOICE: index into choices */
	struct str_list names;		/* ARG_NAMES (point into a copy kept by the parser) */
	struct u64_list list;		/* ARG_SIZES, ARG_COUNTS */
};

struct cli_parser;
/* Stores one parsed option. 0, or 2 after one line (cli_bad_value). */
typedef int (*cli_apply_fn)(struct cli_parser *p, const struct cli_option *opt,
			    const struct cli_value *v);

struct cli_parser {
	enum cli_cmd cmd;
	cli_apply_fn apply;
	void *ctx;			/* the subcommand's options */
	int min_operands, max_operands;	/* max -1: any number */
	FILE *out, *err;		/* NULL: stdout, stderr */
	bool *given;			/* [enum cli_id]: named on the command line; NULL: not kept */
	/* filled by cli_parse */
	char **operands;
	int noperands;
};

extern const struct cli_option cli_options[];
extern const size_t cli_option_count;
/* The --help texts of the subcommands that have more to say than their
 * usage line; go through every subcommand by id (0 to CMD_COUNT). */
extern const struct cli_command cli_commands[];
extern const size_t cli_command_count;

/* cmd's --help texts: its entry of cli_commands[], or the defaults (usage:
 * bench NAME [options]) of a subcommand without one. */
const struct cli_command *cli_command_of(enum cli_cmd cmd);
/* cmd's name ("check", "history add"; "" for the run) and summary (NULL:
 * none), from CLI_COMMAND_LIST. */
const char *cli_command_name(enum cli_cmd cmd);
const char *cli_command_summary(enum cli_cmd cmd);
const struct cli_option *cli_option_of(enum cli_cmd cmd, enum cli_id id);

/*
 * Parses argv[1..] for p->cmd. 0; -1 after --help or --version (exit 0);
 * 2 after one line naming the mistake. argv is left as given: list items
 * and p->operands point into copies kept until cli_release().
 */
int cli_parse(struct cli_parser *p, int argc, char **argv);
/* Frees what every cli_parse() so far handed out beyond argv. */
void cli_release(void);

/* The one line for a value that cannot be used. 2. */
int cli_bad_value(const struct cli_parser *p, const struct cli_option *opt,
		  const char *val, const char *why);
/* The one line for operands that do not fit, e.g. "expected SRC and DST". 2. */
int cli_usage_error(const struct cli_parser *p, const char *what);
/* "bench check" for p's subcommand. */
const char *cli_prog(enum cli_cmd cmd);

void cli_help(enum cli_cmd cmd, FILE *f);
/* The usage line(s) of cmd's --help (bench history's from
 * CLI_HISTORY_LIST). */
void cli_usage(enum cli_cmd cmd, FILE *f);
/* What its --help says after the about text: the run's list of commands,
 * history's summaries of its subcommands, the environment it reads, the
 * operands. */
void cli_help_more(enum cli_cmd cmd, FILE *f);
/* The default as --help shows it ("1; the first also counts syscalls"), or
 * NULL. buf holds it when it is made of two parts. */
const char *cli_default_shown(const struct cli_option *o, char *buf, size_t n);
void cli_exit_codes(enum cli_cmd cmd, FILE *f);
/* docs/options.md, from the table (cli_markdown.c). */
void cli_help_markdown(FILE *f);

#endif
