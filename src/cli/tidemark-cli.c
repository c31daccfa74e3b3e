/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli: the headless face of Tidemark (docs: README, cli.md).
 * Each command lives in cmd-NAME.c; register it in `commands` below. */
#include "tm-config.h"
#include "cli-common.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"

static const TmCliCommand commands[] = {
  { "info",     "TRACE [--json]",              "summary of a trace", tm_cmd_info },
  { "timeline", "TRACE [--json|--csv]",        "one row per GC", tm_cmd_timeline },
  { "synth",    "SCENARIO [-o FILE] [--seed N] [--scale N]", "write a synthetic trace", tm_cmd_synth },
  { "chart",    "TRACE --kind memory|objects|overhead|pauses|pause-histogram|trend|ds-growth --png FILE [--width W] [--height H]", "render the app's charts into a PNG", tm_cmd_chart },
  { "windows",  "TRACE [--json] [--all]",      "suspicious time windows: leaks, GC overhead, churn", tm_cmd_windows },
  { "gc-summary", "TRACE [--from-gc A --to-gc B] [--json]", "throughput, pause percentiles, rates and footprint of a run or a range of GCs", tm_cmd_gc_summary },
  { "gc-phases", "TRACE [--from-gc A --to-gc B] [--kind K] [--list] [--json]", "concurrent phases and cycles, ZGC stalls, Shenandoah degenerated and full GCs", tm_cmd_gc_phases },
  { "heap",     "TRACE --gc N [--classify C1,C2,...] [--metric M] [--top K] [--data-structures] [--ds FILE]... [--json]", "classification tree of the heap after GC N", tm_cmd_heap },
  { "heap-diff", "TRACE --from-gc A --to-gc B [--classify C1,C2,...] [--metric M] [--top K] [--data-structures] [--ds FILE]... [--json]", "compare the heaps after two GCs: each group before, after and its change", tm_cmd_heap_diff },
  { "record",   "[-o FILE] [--graph-every N] [--sample-bytes N] [--stack-depth N] -- COMMAND...", "run a JVM with the recording agent", tm_cmd_record },
  { "ds-growth", "TRACE --from-gc A --to-gc B [--ds FILE]... [--json]", "data structure growth over a window", tm_cmd_ds_growth },
  { "trend",    "TRACE --from-gc A --to-gc B [--classify ...] [--metric M] [--sort S] [--top K] [--no-other] [--every N | --interval SECONDS] [--drill KEY[/KEY...]] [--ds FILE]... [--json|--csv]", "TrendViz: object groups over a window", tm_cmd_trend },
  { "advise",   "FILE [--goal throughput|latency|footprint] [--from-gc A --to-gc B] [--json]", "GC configuration advice with the GCs that show each problem", tm_cmd_advise },
  { "tune",     "[--goal throughput|latency|footprint] [--runs-per-config N] [--time-budget S] [--max-configs N] [--save-to-kb FILE --name NAME] [--json] -- java ARGS...", "measure GC configurations on a workload and recommend one", tm_cmd_tune },
  { "allocs",   "TRACE [--from-gc A --to-gc B] [--classify type[,site|thread]] [--drill KEY] [--sort S] [--top K] [--json|--csv]", "objects and bytes allocated and freed per GC interval", tm_cmd_allocs },
  { "lifetimes", "TRACE [--from-gc A --to-gc B] [--classify C] [--long-lived N] [--top K] [--json]", "age at death: GCs survived and seconds, per group", tm_cmd_lifetimes },
  { "churn", "TRACE [--from-gc A --to-gc B] [--classify C1,C2,...] [--top K] [--json]", "short-lived objects: allocated and dead by their first GC, per group", tm_cmd_churn },
  { "survival", "TRACE [--from-gc A --to-gc B] [--json]", "survivors, promotion and survivor ages per GC", tm_cmd_survival },
  { "floating-garbage", "TRACE [--from-gc A --to-gc B] [--gc N] [--classify C] [--top K] [--json]", "dead objects the collector still keeps, at graph GCs", tm_cmd_floating_garbage },
  { "transactions", "TRACE [--top K] [--json]", "transactions that leave objects behind (record --transaction)", tm_cmd_transactions },
  { "containers", "TRACE [--from-gc A --to-gc B] [--ds FILE]... [--top K] [--json]", "leak confidence per container: memory contribution x staleness", tm_cmd_containers },
  { "callers",  "FILE [--top N] [--sort peak|allocations|temporary|leaked|allocated] [--bottom-up|--top-down|--functions] [--depth D] [--from-gc A] [--to-gc B] [--json]", "allocation costs by call stack (heaptrack's views)", tm_cmd_callers },
  { "flamegraph", "FILE [--metric allocations|temporary|peak|leaked|allocated] --svg|--png OUT [--width W] [--height H] [--bottom-up] [--search TEXT] [--from-gc A] [--to-gc B]", "flame graph of allocation costs by call stack", tm_cmd_flamegraph },
  { "report",   "FILE [--window N] [--ds FILE]... -o REPORT.html", "a self-contained HTML report of the run or of one window", tm_cmd_report },
  /* more commands: register here */
};

static void
print_help (FILE *out)
{
  fprintf (out,
           "Usage: tidemark-cli COMMAND [OPTIONS] ...\n"
           "\n"
           "Find memory leaks, GC overhead and churn in recordings of a program's\n"
           "memory behaviour over time. Inputs are detected from their contents.\n"
           "\n"
           "Commands:\n");
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n  %-10s   %s\n", commands[i].name, commands[i].summary, "", commands[i].synopsis);
  fprintf (out,
           "\n"
           "Run 'tidemark-cli COMMAND --help' for a command's options.\n"
           "\n"
           "Exit status: 0 done (also for a trace cut short: results for the part\n"
           "read, \"complete\": false, and a warning naming the byte offset);\n"
           "1 bad usage; 2 the input cannot be used at all.\n");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  /* JSON is for programs: the same bytes in every locale (no decimal
   * commas or translated explanations inside its strings) */
  for (int i = 2; i < argc; i++)
    if (strcmp (argv[i], "--json") == 0)
      {
        setlocale (LC_NUMERIC, "C");
        setlocale (LC_MESSAGES, "C");
        break;
      }

  if (argc < 2)
    {
      print_help (stderr);
      return TM_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_help (stdout);
      return TM_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("tidemark-cli %s\n", PACKAGE_VERSION);
      return TM_EXIT_OK;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  fprintf (stderr, "tidemark-cli: unknown command '%s'\nTry 'tidemark-cli --help'.\n", argv[1]);
  return TM_EXIT_USAGE;
}
