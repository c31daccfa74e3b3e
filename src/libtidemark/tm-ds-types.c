/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmDsTypes: a description set resolved against a type table, so that
 * detection never compares strings.  Per type: whether it is a head, the
 * kind for "every type" (from a `*` pointee, or the default of undescribed
 * arrays of references), and a sorted list of (referenced type, kind).
 */
#include "tm-ds-private.h"

#include <string.h>

typedef struct {
  guint32 target;
  guint8  kind;
} Rule;

static gint
compare_rules (gconstpointer a, gconstpointer b)
{
  const Rule *x = a, *y = b;

  if (x->target != y->target)
    return x->target < y->target ? -1 : 1;
  return (gint) y->kind - (gint) x->kind;   /* internal before leaf */
}

static gboolean
is_reference_array (const char *name)
{
  static const char *const primitives[] = {
    "boolean[]", "byte[]", "char[]", "short[]", "int[]", "long[]", "float[]", "double[]",
  };

  if (!g_str_has_suffix (name, "[]"))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (primitives); i++)
    if (strcmp (name, primitives[i]) == 0)
      return FALSE;
  return TRUE;
}

#define MAX_HIERARCHY_DEPTH 64

/* Type index of the superclass of i, or G_MAXUINT32.  java.lang.Object is
 * never an ancestor for matching: everything would be its subclass. */
static guint32
super_of (const char * const *type_names, const guint32 *supers, guint32 n_types, guint32 i)
{
  guint32 s = supers != NULL ? supers[i] : G_MAXUINT32;

  if (s >= n_types || s == i || type_names[s] == NULL || strcmp (type_names[s], "java.lang.Object") == 0)
    return G_MAXUINT32;
  return s;
}

/* The description of a type: its own, else its nearest described
 * superclass's (an anonymous LinkedHashMap subclass is a LinkedHashMap). */
static const TmDslDescription *
description_of (const TmDsl *dsl, const char * const *type_names, const guint32 *supers, guint32 n_types, guint32 i)
{
  for (guint depth = 0; i != G_MAXUINT32 && depth < MAX_HIERARCHY_DEPTH; depth++)
    {
      const TmDslDescription *d = tm_dsl_lookup (dsl, type_names[i] != NULL ? type_names[i] : "");
      if (d != NULL)
        return d;
      i = super_of (type_names, supers, n_types, i);
    }
  return NULL;
}

TmDsTypes *
tm_ds_types_new (const TmDsl        *dsl,
                 const char * const *type_names,
                 const guint32      *type_flags,
                 guint32             n_types)
{
  return tm_ds_types_new_with_supers (dsl, type_names, type_flags, NULL, n_types);
}

TmDsTypes *
tm_ds_types_new_with_supers (const TmDsl        *dsl,
                             const char * const *type_names,
                             const guint32      *type_flags,
                             const guint32      *type_supers,
                             guint32             n_types)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) all_rules = g_array_new (FALSE, FALSE, sizeof (Rule));
  g_autoptr(GArray) rules = g_array_new (FALSE, FALSE, sizeof (Rule));
  g_autoptr(GArray) same_name = g_array_new (FALSE, FALSE, sizeof (guint32));
  TmDsTypes *t;
  guint32 *start;

  g_return_val_if_fail (dsl != NULL, NULL);
  g_return_val_if_fail (type_names != NULL || n_types == 0, NULL);

  t = g_new0 (TmDsTypes, 1);
  t->n_types = n_types;
  /* one extra entry: type index n_types stands for "not in the table" */
  t->flags = g_new0 (guint8, (gsize) n_types + 1);
  t->all_kind = g_new0 (guint8, (gsize) n_types + 1);
  start = t->rule_start = g_new0 (guint32, (gsize) n_types + 2);

  /* name -> first type index with it or an ancestor of that name; further
   * ones chained in same_name (an entry per (type, ancestor) pair) */
  for (guint32 i = n_types; i-- > 0;)
    for (guint32 a = i, depth = 0; a != G_MAXUINT32 && depth < MAX_HIERARCHY_DEPTH;
         a = super_of (type_names, type_supers, n_types, a), depth++)
      {
        const char *name = type_names[a] != NULL ? type_names[a] : "";
        gpointer prev = g_hash_table_lookup (by_name, name);
        guint32 link[2] = { i, prev != NULL ? GPOINTER_TO_UINT (prev) - 1 : G_MAXUINT32 };

        g_array_append_vals (same_name, link, 2);
        g_hash_table_insert (by_name, (gpointer) name, GUINT_TO_POINTER (same_name->len / 2));
      }

  for (guint32 i = 0; i < n_types; i++)
    {
      const char *name = type_names[i] != NULL ? type_names[i] : "";
      const TmDslDescription *d = description_of (dsl, type_names, type_supers, n_types, i);

      g_array_set_size (rules, 0);
      /* java.lang.Class holds the statics of its class: metadata shared by
       * the whole program, not part of what any structure holds */
      if (strcmp (name, "java.lang.Class") == 0)
        t->flags[i] |= TM_DS_FLAG_BARRIER;
      if (d == NULL)
        {
          gboolean ref_array = type_flags != NULL
            ? (type_flags[i] & TM_TYPE_FLAG_REF_ARRAY) != 0 || is_reference_array (name)
            : is_reference_array (name);
          /* undescribed arrays of references point to every type */
          if (ref_array)
            t->all_kind[i] = TM_DS_POINTEE_INTERNAL;
        }
      else
        {
          if (d->is_head)
            t->flags[i] |= TM_DS_FLAG_HEAD;
          for (guint p = 0; p < d->n_pointees; p++)
            {
              const TmDslPointee *pt = &d->pointees[p];
              guint8 kind = pt->leaf ? TM_DS_POINTEE_LEAF : TM_DS_POINTEE_INTERNAL;

              if (strcmp (pt->pattern, "*") == 0)
                t->all_kind[i] = MAX (t->all_kind[i], kind);
              else if (pt->wildcard)
                {
                  for (guint32 j = 0; j < n_types; j++)
                    if (type_names[j] != NULL && tm_dsl_pattern_match (pt->pattern, type_names[j]))
                      {
                        Rule r = { j, kind };
                        g_array_append_val (rules, r);
                      }
                }
              else
                {
                  gpointer first = g_hash_table_lookup (by_name, pt->pattern);

                  /* the named type and its subclasses */
                  for (guint32 l = first != NULL ? GPOINTER_TO_UINT (first) - 1 : G_MAXUINT32;
                       l != G_MAXUINT32; l = g_array_index (same_name, guint32, 2 * l + 1))
                    {
                      Rule r = { g_array_index (same_name, guint32, 2 * l), kind };
                      g_array_append_val (rules, r);
                    }
                }
            }
        }

      /* sort, keep the strongest kind per target, fold in the "*" kind */
      g_array_sort (rules, compare_rules);
      for (guint k = 0; k < rules->len; k++)
        {
          Rule r = g_array_index (rules, Rule, k);

          if (k > 0 && g_array_index (rules, Rule, k - 1).target == r.target)
            continue;
          r.kind = MAX (r.kind, t->all_kind[i]);
          if (r.kind != t->all_kind[i])
            g_array_append_val (all_rules, r);
        }
      start[i + 1] = all_rules->len;
      if (t->all_kind[i] != TM_DS_POINTEE_NONE || start[i + 1] > start[i])
        t->flags[i] |= TM_DS_FLAG_POINTEES;
    }

  start[n_types + 1] = all_rules->len;
  t->rule_target = g_new (guint32, MAX (all_rules->len, 1));
  t->rule_kind = g_new (guint8, MAX (all_rules->len, 1));
  for (guint k = 0; k < all_rules->len; k++)
    {
      t->rule_target[k] = g_array_index (all_rules, Rule, k).target;
      t->rule_kind[k] = g_array_index (all_rules, Rule, k).kind;
    }
  return t;
}

TmDsTypes *
tm_ds_types_new_for_trace (const TmDsl   *dsl,
                           const TmTrace *trace)
{
  g_autofree const char **names = NULL;
  g_autofree guint32 *flags = NULL;
  g_autofree guint32 *supers = NULL;
  guint32 n;

  g_return_val_if_fail (dsl != NULL, NULL);
  g_return_val_if_fail (trace != NULL, NULL);

  n = trace->types->len;
  names = g_new0 (const char *, MAX (n, 1));
  flags = g_new0 (guint32, MAX (n, 1));
  supers = g_new0 (guint32, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      const TmType *ty = tm_trace_type (trace, i);
      names[i] = ty->name;
      flags[i] = ty->flags;
      supers[i] = ty->super != TM_UNKNOWN ? ty->super : G_MAXUINT32;
    }
  return tm_ds_types_new_with_supers (dsl, names, flags, supers, n);
}

void
tm_ds_types_free (TmDsTypes *types)
{
  if (types == NULL)
    return;
  g_free (types->flags);
  g_free (types->all_kind);
  g_free (types->rule_start);
  g_free (types->rule_target);
  g_free (types->rule_kind);
  g_free (types);
}

guint32
tm_ds_types_n_types (const TmDsTypes *types)
{
  g_return_val_if_fail (types != NULL, 0);
  return types->n_types;
}

gboolean
tm_ds_types_is_head (const TmDsTypes *types,
                     guint32          type)
{
  g_return_val_if_fail (types != NULL, FALSE);
  return type < types->n_types && (types->flags[type] & TM_DS_FLAG_HEAD) != 0;
}

gboolean
tm_ds_types_has_pointees (const TmDsTypes *types,
                          guint32          type)
{
  g_return_val_if_fail (types != NULL, FALSE);
  return type < types->n_types && (types->flags[type] & TM_DS_FLAG_POINTEES) != 0;
}

TmDsPointeeKind
tm_ds_types_pointee (const TmDsTypes *types,
                     guint32          from,
                     guint32          to)
{
  guint32 lo, hi;

  g_return_val_if_fail (types != NULL, TM_DS_POINTEE_NONE);
  if (from >= types->n_types)
    return TM_DS_POINTEE_NONE;

  lo = types->rule_start[from];
  hi = types->rule_start[from + 1];
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (types->rule_target[mid] < to)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < types->rule_start[from + 1] && types->rule_target[lo] == to)
    return types->rule_kind[lo];
  return types->all_kind[from];
}
