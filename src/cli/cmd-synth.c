/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli synth: synthetic traces with a known truth. */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-synth.h"

#include <stdio.h>
#include <string.h>

int
tm_cmd_synth (int argc, char **argv)
{
  g_autofree char *output = NULL;
  gint64 seed = 1;
  double scale = 1.0;
  int graph_every = 0, gcs = 0;
  gboolean raw = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to FILE (default SCENARIO.tmtrace)", "FILE" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 1)", "N" },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale, "Size factor: 1 = ~2e5 allocations, 50 = ~1e7", "N" },
    { "graph-every", 0, 0, G_OPTION_ARG_INT, &graph_every, "A reference graph every N GCs (default 10)", "N" },
    { "gcs", 0, 0, G_OPTION_ARG_INT, &gcs, "Number of GCs (default 200)", "N" },
    { "raw", 0, 0, G_OPTION_ARG_NONE, &raw, "Write the uncompressed raw stream", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("SCENARIO - write a synthetic trace");
  g_autoptr(GError) error = NULL;
  g_autofree char *scen = g_strjoinv (", ", (char **) tm_synth_scenarios ());
  g_autofree char *desc = g_strdup_printf ("Scenarios: %s. The planted truth of each is documented in "
                                           "src/libtidemark/tm-synth.h.", scen);
  TmSynthOptions opt;
  TmTraceWriter *w;
  int code = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx, desc);
  if (!tm_cli_parse (ctx, "synth", &argc, &argv, &code))
    return code;
  if (argc != 2)
    return tm_cli_usage_error ("synth", argc < 2 ? "missing scenario" : "unexpected argument '%s'", argv[argc < 2 ? 0 : 2]);
  if (seed < 0 || scale <= 0 || graph_every < 0 || gcs < 0 || gcs > 10000000)
    return tm_cli_usage_error ("synth", "--seed, --scale, --graph-every and --gcs take positive numbers");

  tm_synth_options_init (&opt);
  opt.scenario = argv[1];
  opt.seed = (guint64) seed;
  opt.scale = scale;
  opt.graph_every = (guint) graph_every;
  opt.n_gcs = (guint) gcs;
  if (output == NULL)
    output = g_strdup_printf ("%s.tmtrace", argv[1]);

  {
    const char * const *names = tm_synth_scenarios ();
    gboolean known = FALSE;
    for (guint i = 0; names[i]; i++)
      known |= strcmp (names[i], argv[1]) == 0;
    if (!known)
      return tm_cli_usage_error ("synth", "unknown scenario '%s' (known: %s)", argv[1], scen);
  }

  w = tm_trace_writer_new_for_path (output, !raw, &error);
  if (w == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return TM_EXIT_INPUT;
    }
  if (!tm_synth_write (&opt, w, &error) || !tm_trace_writer_close (w, &error))
    {
      fprintf (stderr, "%s: %s\n", output, error->message);
      tm_trace_writer_free (w);
      return TM_EXIT_INPUT;
    }
  fprintf (stderr, "wrote %s (%" G_GUINT64_FORMAT " bytes)\n", output, tm_trace_writer_file_bytes (w));
  tm_trace_writer_free (w);
  return TM_EXIT_OK;
}
