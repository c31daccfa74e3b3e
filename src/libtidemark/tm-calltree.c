/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Call profiles, their bottom-up and top-down trees and the caller/callee
 * table (see tm-calltree.h for the rules, which are heaptrack_gui's).
 */
#include "tm-config.h"

#include <string.h>

#include "tm-calltree.h"

typedef struct {
  guint32 first_frame;
  guint32 depth;
  TmCost  cost;
} Stack;

struct _TmCallProfile {
  gint          ref_count;
  GStringChunk *strings;
  GHashTable   *symbol_index;   /* "function\x1fmodule" -> index + 1 */
  GArray       *symbols;        /* TmCallSymbol */
  GArray       *frames;         /* TmCallFrame (file interned) */
  GArray       *stacks;         /* Stack */
  TmCost        total;
};

static const char *const cost_names[TM_N_COSTS] = { "allocations", "temporary", "peak", "leaked", "allocated" };
static const char *const cost_labels[TM_N_COSTS] = { "Allocations", "Temporary", "Peak", "Leaked", "Allocated" };

const char *
tm_cost_kind_to_string (TmCostKind kind)
{
  g_return_val_if_fail (kind < TM_N_COSTS, "");
  return cost_names[kind];
}

const char *
tm_cost_kind_label (TmCostKind kind)
{
  g_return_val_if_fail (kind < TM_N_COSTS, "");
  return cost_labels[kind];
}

gboolean
tm_cost_kind_from_string (const char *name, TmCostKind *kind)
{
  for (guint i = 0; i < TM_N_COSTS && name != NULL; i++)
    if (strcmp (name, cost_names[i]) == 0)
      {
        *kind = (TmCostKind) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
tm_cost_kind_is_bytes (TmCostKind kind)
{
  return kind == TM_COST_PEAK || kind == TM_COST_LEAKED || kind == TM_COST_ALLOCATED;
}

void
tm_cost_add (TmCost *to, const TmCost *c)
{
  for (guint i = 0; i < TM_N_COSTS; i++)
    to->v[i] += c->v[i];
}

/* ---- profile ---------------------------------------------------------- */

TmCallProfile *
tm_call_profile_new (void)
{
  TmCallProfile *p = g_new0 (TmCallProfile, 1);

  p->ref_count = 1;
  p->strings = g_string_chunk_new (4096);
  p->symbol_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p->symbols = g_array_new (FALSE, FALSE, sizeof (TmCallSymbol));
  p->frames = g_array_new (FALSE, FALSE, sizeof (TmCallFrame));
  p->stacks = g_array_new (FALSE, FALSE, sizeof (Stack));
  return p;
}

TmCallProfile *
tm_call_profile_ref (TmCallProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  g_atomic_int_inc (&profile->ref_count);
  return profile;
}

void
tm_call_profile_unref (TmCallProfile *profile)
{
  if (profile == NULL || !g_atomic_int_dec_and_test (&profile->ref_count))
    return;
  g_string_chunk_free (profile->strings);
  g_hash_table_unref (profile->symbol_index);
  g_array_unref (profile->symbols);
  g_array_unref (profile->frames);
  g_array_unref (profile->stacks);
  g_free (profile);
}

guint32
tm_call_profile_symbol (TmCallProfile *profile, const char *function, const char *module, gboolean resolved)
{
  g_autofree char *key = NULL;
  gpointer v;
  TmCallSymbol s = { 0 };

  g_return_val_if_fail (profile != NULL, 0);
  function = function ? function : "";
  module = module ? module : "";
  key = g_strconcat (function, "\x1f", module, NULL);
  if ((v = g_hash_table_lookup (profile->symbol_index, key)) != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  s.function = g_string_chunk_insert_const (profile->strings, function);
  s.module = g_string_chunk_insert_const (profile->strings, module);
  s.file = "";
  s.line = -1;
  s.resolved = resolved;
  g_array_append_val (profile->symbols, s);
  g_hash_table_insert (profile->symbol_index, g_steal_pointer (&key), GUINT_TO_POINTER (profile->symbols->len));
  return profile->symbols->len - 1;
}

void
tm_call_profile_add_stack (TmCallProfile *profile, const TmCallFrame *frames, guint depth, const TmCost *cost)
{
  Stack s;

  g_return_if_fail (profile != NULL && cost != NULL && (frames != NULL || depth == 0));
  s.first_frame = profile->frames->len;
  s.depth = depth;
  s.cost = *cost;
  for (guint i = 0; i < depth; i++)
    {
      TmCallFrame f = frames[i];
      TmCallSymbol *sym;

      g_return_if_fail (f.symbol < profile->symbols->len);
      f.file = g_string_chunk_insert_const (profile->strings, f.file ? f.file : "");
      g_array_append_val (profile->frames, f);
      /* the symbol's location: its first frame with a file */
      sym = &g_array_index (profile->symbols, TmCallSymbol, f.symbol);
      if (sym->file[0] == '\0' && f.file[0] != '\0')
        {
          sym->file = f.file;
          sym->line = f.line;
        }
    }
  g_array_append_val (profile->stacks, s);
  tm_cost_add (&profile->total, cost);
}

guint
tm_call_profile_n_symbols (const TmCallProfile *profile)
{
  return profile->symbols->len;
}

const TmCallSymbol *
tm_call_profile_get_symbol (const TmCallProfile *profile, guint32 symbol)
{
  g_return_val_if_fail (symbol < profile->symbols->len, NULL);
  return &g_array_index (profile->symbols, TmCallSymbol, symbol);
}

const TmCost *
tm_call_profile_total (const TmCallProfile *profile)
{
  return &profile->total;
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash ? slash + 1 : path;
}

char *
tm_call_symbol_label (const TmCallSymbol *symbol)
{
  if (!symbol->resolved && symbol->module[0] != '\0')
    return g_strdup_printf ("%s (%s)", symbol->function, base_name (symbol->module));
  return g_strdup (symbol->function);
}

char *
tm_call_symbol_location (const TmCallSymbol *symbol)
{
  if (symbol->file[0] != '\0' && symbol->line > 0)
    return g_strdup_printf ("%s:%d", symbol->file, symbol->line);
  if (symbol->file[0] != '\0')
    return g_strdup (symbol->file);
  return g_strdup (base_name (symbol->module));
}

/* ---- trees ------------------------------------------------------------- */

struct _TmCallTree {
  TmCallProfile  *profile;
  TmCallTreeKind  kind;
  TmCallNode     *nodes;
  guint           n_nodes;
};

typedef struct {
  TmCallNode node;
} BuildNode;

/* Hash of a (parent, symbol) or (caller, callee) pair packed in 64 bits.
 * g_int64_hash folds the halves with XOR, so all pairs with the same
 * parent ^ symbol collide: the call tree of a compiler's recording (430 K
 * allocations, deep stacks) took minutes in the probing. */
guint
tm_call_pair_hash (gconstpointer v)
{
  guint64 x = *(const guint64 *) v;

  /* MurmurHash3's 64-bit finalizer */
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  x ^= x >> 33;
  return (guint) x;
}

static guint32
child_of (GArray *nodes, GHashTable *index, guint32 parent, const TmCallFrame *f)
{
  guint64 key = (guint64) parent << 32 | f->symbol;
  gpointer v;
  BuildNode n = { { 0 } };

  if (g_hash_table_lookup_extended (index, &key, NULL, &v))
    return GPOINTER_TO_UINT (v);
  n.node.symbol = f->symbol;
  n.node.parent = parent;
  n.node.file = f->file;
  n.node.line = f->line;
  g_array_append_val (nodes, n);
  g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (nodes->len - 1));
  return nodes->len - 1;
}

static int
cmp_parent_symbol (gconstpointer a, gconstpointer b, gpointer data)
{
  const BuildNode *nodes = data;
  const TmCallNode *x = &nodes[*(const guint32 *) a].node, *y = &nodes[*(const guint32 *) b].node;

  if (x->parent != y->parent)
    return x->parent < y->parent ? -1 : 1;
  return x->symbol < y->symbol ? -1 : x->symbol > y->symbol;
}

TmCallTree *
tm_call_tree_new (TmCallProfile *profile, TmCallTreeKind kind)
{
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (BuildNode));
  g_autoptr(GHashTable) index = g_hash_table_new_full (tm_call_pair_hash, g_int64_equal, g_free, NULL);
  g_autofree guint32 *sorted = NULL, *renum = NULL, *queue = NULL;
  BuildNode root = { { 0 } };
  TmCallTree *tree;
  guint n, head = 0, tail = 0, pos = 0;

  g_return_val_if_fail (profile != NULL, NULL);

  root.node.symbol = root.node.parent = TM_CALL_NO_NODE;
  root.node.file = "";
  root.node.line = -1;
  g_array_append_val (nodes, root);

  for (guint s = 0; s < profile->stacks->len; s++)
    {
      const Stack *st = &g_array_index (profile->stacks, Stack, s);
      const TmCallFrame *frames = &g_array_index (profile->frames, TmCallFrame, st->first_frame);
      guint32 at = 0;

      tm_cost_add (&g_array_index (nodes, BuildNode, 0).node.cost, &st->cost);
      for (guint i = 0; i < st->depth; i++)
        {
          const TmCallFrame *f = kind == TM_CALL_TREE_BOTTOM_UP ? &frames[i] : &frames[st->depth - 1 - i];
          at = child_of (nodes, index, at, f);
          tm_cost_add (&g_array_index (nodes, BuildNode, at).node.cost, &st->cost);
        }
      tm_cost_add (&g_array_index (nodes, BuildNode, at).node.self, &st->cost);
    }

  /* lay children out contiguously: order by (parent, symbol), then number
   * breadth first so that each node's children get consecutive indices */
  n = nodes->len;
  sorted = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    sorted[i] = i;
  g_qsort_with_data (sorted + 1, (gint) n - 1, sizeof (guint32), cmp_parent_symbol, nodes->data);

  renum = g_new (guint32, n);
  queue = g_new (guint32, n);
  tree = g_new0 (TmCallTree, 1);
  tree->profile = tm_call_profile_ref (profile);
  tree->kind = kind;
  tree->n_nodes = n;
  tree->nodes = g_new (TmCallNode, n);

  {
    /* group start per parent (old index) in `sorted` */
    g_autofree guint32 *group = g_new (guint32, n);
    g_autofree guint32 *group_n = g_new0 (guint32, n);

    for (guint i = 0; i < n; i++)
      group[i] = TM_CALL_NO_NODE;
    for (guint i = 1; i < n; i++)
      {
        guint32 p = g_array_index (nodes, BuildNode, sorted[i]).node.parent;
        if (group[p] == TM_CALL_NO_NODE)
          group[p] = i;
        group_n[p]++;
      }
    queue[tail++] = 0;
    renum[0] = pos++;
    while (head < tail)
      {
        guint32 old = queue[head++];
        TmCallNode *out = &tree->nodes[renum[old]];

        *out = g_array_index (nodes, BuildNode, old).node;
        out->n_children = group_n[old];
        out->first_child = group_n[old] ? pos : 0;
        for (guint k = 0; k < group_n[old]; k++)
          {
            guint32 child = sorted[group[old] + k];
            renum[child] = pos++;
            queue[tail++] = child;
          }
        if (out->parent != TM_CALL_NO_NODE)
          out->parent = renum[out->parent];
      }
  }
  return tree;
}

void
tm_call_tree_free (TmCallTree *tree)
{
  if (tree == NULL)
    return;
  tm_call_profile_unref (tree->profile);
  g_free (tree->nodes);
  g_free (tree);
}

TmCallTreeKind
tm_call_tree_kind (const TmCallTree *tree)
{
  return tree->kind;
}

TmCallProfile *
tm_call_tree_profile (const TmCallTree *tree)
{
  return tree->profile;
}

guint
tm_call_tree_n_nodes (const TmCallTree *tree)
{
  return tree->n_nodes;
}

const TmCallNode *
tm_call_tree_node (const TmCallTree *tree, guint32 node)
{
  g_return_val_if_fail (node < tree->n_nodes, NULL);
  return &tree->nodes[node];
}

guint
tm_call_tree_path (const TmCallTree *tree, guint32 node, guint32 *out, guint max)
{
  guint depth = 0, n;

  g_return_val_if_fail (node < tree->n_nodes, 0);
  for (guint32 at = node; at != 0 && at != TM_CALL_NO_NODE; at = tree->nodes[at].parent)
    depth++;
  n = MIN (depth, max);
  /* fill from the end so that out[0] is nearest the root */
  for (guint32 at = node, i = depth; at != 0 && at != TM_CALL_NO_NODE; at = tree->nodes[at].parent)
    {
      i--;
      if (i < n)
        out[i] = at;
    }
  return n;
}

typedef struct {
  const TmCallTree *tree;
  TmCostKind        kind;
} SortCtx;

static int
cmp_cost_desc (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortCtx *c = data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  gint64 vx = c->tree->nodes[x].cost.v[c->kind], vy = c->tree->nodes[y].cost.v[c->kind];

  if (vx != vy)
    return vx > vy ? -1 : 1;
  return x < y ? -1 : x > y;
}

guint
tm_call_tree_sorted_children (const TmCallTree *tree, guint32 node, TmCostKind kind, guint32 *out)
{
  const TmCallNode *n;
  SortCtx ctx = { tree, kind };

  g_return_val_if_fail (node < tree->n_nodes && kind < TM_N_COSTS, 0);
  n = &tree->nodes[node];
  for (guint i = 0; i < n->n_children; i++)
    out[i] = n->first_child + i;
  g_qsort_with_data (out, (gint) n->n_children, sizeof (guint32), cmp_cost_desc, &ctx);
  return n->n_children;
}

/* ---- caller/callee ------------------------------------------------------ */

struct _TmCallerCallee {
  TmCallFunction *functions;
  guint           n_functions;
  TmCallEdge     *edges;       /* callers and callees of all functions */
};

typedef struct {
  guint32 caller, callee;
  TmCost  cost;
} Edge;

static int
cmp_edge_by_callee (gconstpointer a, gconstpointer b)
{
  const Edge *x = a, *y = b;
  if (x->callee != y->callee)
    return x->callee < y->callee ? -1 : 1;
  return x->caller < y->caller ? -1 : x->caller > y->caller;
}

static int
cmp_edge_by_caller (gconstpointer a, gconstpointer b)
{
  const Edge *x = a, *y = b;
  if (x->caller != y->caller)
    return x->caller < y->caller ? -1 : 1;
  return x->callee < y->callee ? -1 : x->callee > y->callee;
}

static gboolean
seen_before (const TmCallFrame *frames, guint i, guint32 symbol)
{
  for (guint k = 0; k < i; k++)
    if (frames[k].symbol == symbol)
      return TRUE;
  return FALSE;
}

static gboolean
pair_seen_before (const TmCallFrame *frames, guint i)
{
  for (guint k = 0; k < i; k++)
    if (frames[k].symbol == frames[i].symbol && frames[k + 1].symbol == frames[i + 1].symbol)
      return TRUE;
  return FALSE;
}

TmCallerCallee *
tm_caller_callee_new (TmCallProfile *profile)
{
  g_autoptr(GHashTable) edge_index = g_hash_table_new_full (tm_call_pair_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  TmCallerCallee *cc;
  guint n_sym = profile->symbols->len;

  cc = g_new0 (TmCallerCallee, 1);
  cc->n_functions = n_sym;
  cc->functions = g_new0 (TmCallFunction, n_sym);
  for (guint32 i = 0; i < n_sym; i++)
    cc->functions[i].symbol = i;

  for (guint s = 0; s < profile->stacks->len; s++)
    {
      const Stack *st = &g_array_index (profile->stacks, Stack, s);
      const TmCallFrame *frames = &g_array_index (profile->frames, TmCallFrame, st->first_frame);

      if (st->depth == 0)
        continue;
      tm_cost_add (&cc->functions[frames[0].symbol].self, &st->cost);
      for (guint i = 0; i < st->depth; i++)
        {
          if (!seen_before (frames, i, frames[i].symbol))
            tm_cost_add (&cc->functions[frames[i].symbol].inclusive, &st->cost);
          /* frames[i + 1] called frames[i]; once per pair and stack */
          if (i + 1 < st->depth && !pair_seen_before (frames, i))
            {
              guint64 key = (guint64) frames[i + 1].symbol << 32 | frames[i].symbol;
              gpointer v;
              guint e;

              if (g_hash_table_lookup_extended (edge_index, &key, NULL, &v))
                e = GPOINTER_TO_UINT (v);
              else
                {
                  Edge ne = { frames[i + 1].symbol, frames[i].symbol, { { 0 } } };
                  g_array_append_val (edges, ne);
                  e = edges->len - 1;
                  g_hash_table_insert (edge_index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (e));
                }
              tm_cost_add (&g_array_index (edges, Edge, e).cost, &st->cost);
            }
        }
    }

  /* callers of each function, then callees, in one array */
  cc->edges = g_new (TmCallEdge, 2 * (gsize) edges->len + 1);
  g_array_sort (edges, cmp_edge_by_callee);
  for (guint i = 0; i < edges->len; i++)
    {
      const Edge *e = &g_array_index (edges, Edge, i);
      TmCallFunction *f = &cc->functions[e->callee];
      if (f->n_callers == 0)
        f->callers = &cc->edges[i];
      f->n_callers++;
      cc->edges[i] = (TmCallEdge) { e->caller, e->cost };
    }
  g_array_sort (edges, cmp_edge_by_caller);
  for (guint i = 0; i < edges->len; i++)
    {
      const Edge *e = &g_array_index (edges, Edge, i);
      TmCallFunction *f = &cc->functions[e->caller];
      TmCallEdge *slot = &cc->edges[edges->len + i];
      if (f->n_callees == 0)
        f->callees = slot;
      f->n_callees++;
      *slot = (TmCallEdge) { e->callee, e->cost };
    }
  return cc;
}

void
tm_caller_callee_free (TmCallerCallee *cc)
{
  if (cc == NULL)
    return;
  g_free (cc->functions);
  g_free (cc->edges);
  g_free (cc);
}

guint
tm_caller_callee_n_functions (const TmCallerCallee *cc)
{
  return cc->n_functions;
}

const TmCallFunction *
tm_caller_callee_function (const TmCallerCallee *cc, guint32 symbol)
{
  g_return_val_if_fail (symbol < cc->n_functions, NULL);
  return &cc->functions[symbol];
}
