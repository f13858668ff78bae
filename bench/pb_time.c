// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pb_time: run one command and report what it cost.
 *
 *	pb_time [-t SECONDS] [-o FILE] CMD [ARG...]
 *
 * Prints (to FILE, default stderr) one line:
 *
 *	wall_ns user_us sys_us maxrss_kb status
 *
 * wall_ns is CLOCK_MONOTONIC from just before fork to just after wait4;
 * user_us, sys_us and maxrss_kb come from wait4's rusage of the child, so
 * they are the command's own (after exec: env, time and the like are gone).
 * status is the exit code, or 128+N when killed by signal N.  With -t the
 * command is killed (SIGKILL, whole process group) after SECONDS and status
 * is 124, as timeout(1) does.  SIGINT or SIGTERM to pb_time kill the command
 * as well.  Exits with the command's status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t child;
static volatile sig_atomic_t timed_out, interrupted;

/* SIGALRM: the limit ran out; SIGINT/SIGTERM: take the command down too */
static void on_signal(int sig)
{
	if (sig == SIGALRM)
		timed_out = 1;
	else
		interrupted = sig;
	if (child > 0)
		kill(-child, SIGKILL);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *outfile = NULL;
	unsigned int limit = 0;
	struct sigaction sa;
	struct rusage ru;
	long long t0, t1;
	int opt, wst, st;
	FILE *out;

	while ((opt = getopt(argc, argv, "+t:o:")) != -1) {
		switch (opt) {
		case 't':
			limit = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'o':
			outfile = optarg;
			break;
		default:
			fprintf(stderr, "usage: pb_time [-t SECONDS] [-o FILE] CMD [ARG...]\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: pb_time [-t SECONDS] [-o FILE] CMD [ARG...]\n");
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	t0 = now_ns();
	child = fork();
	if (child < 0) {
		perror("pb_time: fork");
		return 125;
	}
	if (child == 0) {
		setpgid(0, 0);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "pb_time: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	setpgid(child, child);
	if (limit)
		alarm(limit);
	while (wait4(child, &wst, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("pb_time: wait4");
			return 125;
		}
	}
	t1 = now_ns();
	alarm(0);

	if (interrupted)
		return 128 + interrupted;
	if (timed_out)
		st = 124;
	else if (WIFEXITED(wst))
		st = WEXITSTATUS(wst);
	else
		st = 128 + WTERMSIG(wst);

	out = outfile ? fopen(outfile, "w") : stderr;
	if (!out) {
		perror("pb_time: output file");
		return 125;
	}
	fprintf(out, "%lld %ld %ld %ld %d\n", t1 - t0,
		ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec,
		ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec,
		ru.ru_maxrss, st);
	if (outfile)
		fclose(out);
	return st;
}
