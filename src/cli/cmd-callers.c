/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli callers: call trees of allocation costs (heaptrack's
 * bottom-up and top-down views) and the caller/callee table. */
#include "cli-calls.h"
#include "cli-commands.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  const TmCallTree *tree;
  TmCallProfile    *profile;
  TmCostKind        sort;
  gint              top;
  gint              depth;
  GString          *out;
} Printer;

/* The node's children, largest first, at most `top` with a cost. */
static guint
sorted_children (const Printer *p, guint32 node, guint32 **out)
{
  const TmCallNode *n = tm_call_tree_node (p->tree, node);
  guint count = 0;

  *out = g_new (guint32, n->n_children + 1);
  tm_call_tree_sorted_children (p->tree, node, p->sort, *out);
  while (count < n->n_children && count < (guint) p->top &&
         tm_call_tree_node (p->tree, (*out)[count])->cost.v[p->sort] != 0)
    count++;
  return count;
}

static void
cost_columns (GString *out, const TmCost *c)
{
  for (guint k = 0; k < TM_N_COSTS; k++)
    {
      g_autofree char *v = tm_cost_kind_is_bytes (k) ? tm_format_bytes ((double) c->v[k])
                                                     : tm_format_count ((guint64) MAX (c->v[k], 0));
      g_string_append_printf (out, "%12s", v);
    }
}

static void
print_text_node (Printer *p, guint32 node, guint level)
{
  const TmCallNode *n = tm_call_tree_node (p->tree, node);
  g_autofree guint32 *kids = NULL;
  guint count;

  if (node != 0)
    {
      g_autofree char *frame = tm_cli_frame_text (tm_call_profile_get_symbol (p->profile, n->symbol), n->file, n->line);
      cost_columns (p->out, &n->cost);
      g_string_append_printf (p->out, "  %*s%s\n", (int) (2 * (level - 1)), "", frame);
    }
  if ((gint) level >= p->depth)
    return;
  count = sorted_children (p, node, &kids);
  for (guint i = 0; i < count; i++)
    print_text_node (p, kids[i], level + 1);
}

static void
print_json_node (Printer *p, guint32 node, guint level)
{
  const TmCallNode *n = tm_call_tree_node (p->tree, node);
  g_autofree guint32 *kids = NULL;
  guint count = 0;

  g_string_append_c (p->out, '{');
  if (node != 0)
    {
      tm_cli_json_frame (p->out, tm_call_profile_get_symbol (p->profile, n->symbol), n->file, n->line);
      g_string_append (p->out, ", ");
    }
  for (guint k = 0; k < TM_N_COSTS; k++)
    g_string_append_printf (p->out, "\"%s\": %" G_GINT64_FORMAT ", ", tm_cost_kind_to_string (k), n->cost.v[k]);
  g_string_append (p->out, "\"self\": ");
  tm_cli_json_cost (p->out, &n->self);
  g_string_append (p->out, ", \"children\": [");
  if ((gint) level < p->depth)
    count = sorted_children (p, node, &kids);
  for (guint i = 0; i < count; i++)
    {
      if (i > 0)
        g_string_append (p->out, ", ");
      print_json_node (p, kids[i], level + 1);
    }
  g_string_append (p->out, "]}");
}

/* ---- caller/callee ---- */

typedef struct {
  const TmCallerCallee *cc;
  TmCostKind            sort;
} FnSort;

static int
cmp_functions (gconstpointer a, gconstpointer b, gpointer data)
{
  const FnSort *s = data;
  gint64 x = tm_caller_callee_function (s->cc, *(const guint32 *) a)->inclusive.v[s->sort];
  gint64 y = tm_caller_callee_function (s->cc, *(const guint32 *) b)->inclusive.v[s->sort];

  if (x != y)
    return x > y ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : 1;
}

static int
cmp_edges (gconstpointer a, gconstpointer b, gpointer data)
{
  TmCostKind sort = *(const TmCostKind *) data;
  gint64 x = ((const TmCallEdge *) a)->cost.v[sort], y = ((const TmCallEdge *) b)->cost.v[sort];
  return x > y ? -1 : x < y;
}

static void
print_edges (GString *out, TmCallProfile *profile, const TmCallEdge *edges, guint n, TmCostKind sort, gint top,
             gboolean json, const char *what)
{
  g_autofree TmCallEdge *sorted = g_memdup2 (edges, sizeof (TmCallEdge) * n);
  guint count = MIN (n, (guint) top);

  g_qsort_with_data (sorted, (gint) n, sizeof (TmCallEdge), cmp_edges, &sort);
  if (json)
    g_string_append_printf (out, ", \"%s\": [", what);
  for (guint i = 0; i < count; i++)
    {
      const TmCallSymbol *sym = tm_call_profile_get_symbol (profile, sorted[i].symbol);
      if (json)
        {
          g_string_append (out, i ? ", {" : "{");
          tm_cli_json_frame (out, sym, sym->file, sym->line);
          g_string_append (out, ", \"cost\": ");
          tm_cli_json_cost (out, &sorted[i].cost);
          g_string_append_c (out, '}');
        }
      else
        {
          g_autofree char *label = tm_call_symbol_label (sym);
          cost_columns (out, &sorted[i].cost);
          g_string_append_printf (out, "      %s %s\n", g_str_equal (what, "callers") ? "<-" : "->", label);
        }
    }
  if (json)
    g_string_append_c (out, ']');
}

static void
print_functions (GString *out, TmCallProfile *profile, TmCostKind sort, gint top, gboolean json)
{
  g_autoptr(TmCallerCallee) cc = tm_caller_callee_new (profile);
  guint n = tm_caller_callee_n_functions (cc), count = 0;
  g_autofree guint32 *order = g_new (guint32, n + 1);
  FnSort s = { cc, sort };

  for (guint32 i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof (guint32), cmp_functions, &s);
  if (json)
    g_string_append (out, ", \"functions\": [");
  for (guint i = 0; i < n && count < (guint) top; i++)
    {
      const TmCallFunction *f = tm_caller_callee_function (cc, order[i]);
      const TmCallSymbol *sym = tm_call_profile_get_symbol (profile, f->symbol);

      if (f->inclusive.v[sort] == 0)
        break;
      if (json)
        {
          g_string_append (out, count ? ", {" : "{");
          tm_cli_json_frame (out, sym, sym->file, sym->line);
          g_string_append (out, ", \"inclusive\": ");
          tm_cli_json_cost (out, &f->inclusive);
          g_string_append (out, ", \"self\": ");
          tm_cli_json_cost (out, &f->self);
        }
      else
        {
          g_autofree char *frame = tm_cli_frame_text (sym, sym->file, sym->line);
          cost_columns (out, &f->inclusive);
          g_string_append_printf (out, "  %s\n", frame);
          cost_columns (out, &f->self);
          g_string_append (out, "    (self)\n");
        }
      print_edges (out, profile, f->callers, f->n_callers, sort, top, json, "callers");
      print_edges (out, profile, f->callees, f->n_callees, sort, top, json, "callees");
      if (json)
        g_string_append_c (out, '}');
      count++;
    }
  if (json)
    g_string_append_c (out, ']');
}

int
tm_cmd_callers (int argc, char **argv)
{
  gboolean json = FALSE, bottom_up = FALSE, top_down = FALSE, functions = FALSE;
  gint top = 10, depth = 3;
  gint64 from_gc = 0, to_gc = 0;
  g_autofree char *sort_name = NULL;
  GOptionEntry entries[] = {
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the N largest at each level (default 10)", "N" },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &sort_name, "peak (default), allocations, temporary, leaked or allocated", "COST" },
    { "bottom-up", 0, 0, G_OPTION_ARG_NONE, &bottom_up, "Allocating functions first, then their callers (default)", NULL },
    { "top-down", 0, 0, G_OPTION_ARG_NONE, &top_down, "Entry points first, then what they call", NULL },
    { "functions", 0, 0, G_OPTION_ARG_NONE, &functions, "Caller/callee table: each function's inclusive and self costs", NULL },
    { "depth", 0, 0, G_OPTION_ARG_INT, &depth, "Levels of the tree to print (default 3)", "D" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &from_gc, "A window from GC (or heaptrack time point) A ...", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &to_gc, "... to B: what it allocated; leaked: what it kept; peak: live after B", "B" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("FILE - allocation costs by call stack");
  g_auto(TmCliCalls) calls = { 0 };
  g_autoptr(TmCallTree) tree = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  TmCostKind sort = TM_COST_PEAK;
  const char *path;
  int code = 0;
  Printer p;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Costs follow heaptrack: allocations (calls to allocation functions), temporary\n"
    "(freed right after), peak (bytes live when the heap peaked), leaked (never\n"
    "freed), allocated (bytes in total). For traces, temporary objects are those\n"
    "that died in the first GC after their birth, peak is the GC that kept most.");
  if (!tm_cli_parse (ctx, "callers", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("callers", argc, argv, &code)) == NULL)
    return code;
  if (sort_name != NULL && !tm_cost_kind_from_string (sort_name, &sort))
    return tm_cli_usage_error ("callers", "unknown --sort '%s' (peak, allocations, temporary, leaked, allocated)", sort_name);
  if (bottom_up && top_down)
    return tm_cli_usage_error ("callers", "--bottom-up and --top-down exclude each other");
  if (top < 1 || depth < 1)
    return tm_cli_usage_error ("callers", "--top and --depth must be 1 or more");
  if (from_gc < 0 || to_gc < 0)
    return tm_cli_usage_error ("callers", "--from-gc and --to-gc must be 1 or more");
  if (!tm_cli_load_calls ("callers", path, from_gc, to_gc, &calls, &code))
    return code;

  if (json)
    {
      g_string_append (out, "{\"file\": ");
      tm_json_append_string (out, path);
      g_string_append_printf (out, ", \"view\": \"%s\", \"sort\": \"%s\", \"total\": ",
                              functions ? "caller-callee" : top_down ? "top-down" : "bottom-up", tm_cost_kind_to_string (sort));
      tm_cli_json_cost (out, tm_call_profile_total (calls.calls));
    }
  else
    {
      g_string_append_printf (out, "%s: %s, by %s\n", path,
                              functions ? "functions with their callers and callees (inclusive costs)"
                              : top_down ? "top-down call tree (entry points, then what they call)"
                                         : "bottom-up call tree (allocating functions, then their callers)",
                              tm_cost_kind_to_string (sort));
      for (guint k = 0; k < TM_N_COSTS; k++)
        {
          g_autofree char *head = g_ascii_strup (tm_cost_kind_to_string (k), -1);
          g_string_append_printf (out, "%12s", head);
        }
      g_string_append (out, "  FUNCTION\n");
      cost_columns (out, tm_call_profile_total (calls.calls));
      g_string_append (out, "  (all)\n");
    }

  if (functions)
    print_functions (out, calls.calls, sort, top, json);
  else
    {
      tree = tm_call_tree_new (calls.calls, top_down ? TM_CALL_TREE_TOP_DOWN : TM_CALL_TREE_BOTTOM_UP);
      p = (Printer) { tree, calls.calls, sort, top, depth, out };
      if (json)
        {
          g_autofree guint32 *kids = NULL;
          guint count = sorted_children (&p, 0, &kids);
          g_string_append (out, ", \"nodes\": [");
          for (guint i = 0; i < count; i++)
            {
              if (i > 0)
                g_string_append (out, ", ");
              print_json_node (&p, kids[i], 1);
            }
          g_string_append_c (out, ']');
        }
      else
        print_text_node (&p, 0, 0);
    }
  if (json)
    g_string_append (out, "}\n");
  fputs (out->str, stdout);
  return TM_EXIT_OK;
}
