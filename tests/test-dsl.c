/* SPDX-License-Identifier: GPL-3.0-or-later
 * The data structure description language: parsing, names, errors with
 * exact positions, loading several files, and the shipped library checked
 * against the layout of a real JDK 17 (tests/dsl/jdk17-collections.txt,
 * written by tests/dsl/JdkCollectionsProbe.java). */
#include "tm-dsl.h"
#include "tm-error.h"

#include <glib/gstdio.h>
#include <string.h>

static const TmDslPointee *
find_pointee (const TmDslDescription *d, const char *pattern)
{
  for (guint i = 0; i < d->n_pointees; i++)
    if (strcmp (d->pointees[i].pattern, pattern) == 0)
      return &d->pointees[i];
  return NULL;
}

static void
test_spec_example (void)
{
  /* both forms of the example of ds-dsl.md */
  const char *full =
    "// java.util.LinkedList, written out in full\n"
    "DS java.util.LinkedList {\n"
    "    java.util.LinkedList$Node;\n"
    "}\n"
    "java.util.LinkedList$Node {\n"
    "    java.util.LinkedList$Node;\n"
    "    (*);\n"
    "}\n";
  const char *ns =
    "/* the same, with a namespace\n   and a wildcard */\n"
    "namespace java.util {\n"
    "    DS LinkedList { *; }\n"
    "    LinkedList$Node { LinkedList$Node; (*); }\n"
    "}\n";
  g_autoptr(TmDsl) a = tm_dsl_new ();
  g_autoptr(TmDsl) b = tm_dsl_new ();
  g_autoptr(GError) error = NULL;
  const TmDslDescription *d;
  const TmDslPointee *p;

  g_assert_true (tm_dsl_add_string (a, "full.ds", full, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tm_dsl_n_descriptions (a), ==, 2);
  d = tm_dsl_lookup (a, "java.util.LinkedList");
  g_assert_nonnull (d);
  g_assert_true (d->is_head);
  g_assert_cmpuint (d->line, ==, 2);
  g_assert_cmpuint (d->column, ==, 4);
  g_assert_cmpuint (d->n_pointees, ==, 1);
  g_assert_cmpstr (d->pointees[0].pattern, ==, "java.util.LinkedList$Node");
  g_assert_false (d->pointees[0].leaf);
  d = tm_dsl_lookup (a, "java.util.LinkedList$Node");
  g_assert_nonnull (d);
  g_assert_false (d->is_head);
  g_assert_cmpuint (d->n_pointees, ==, 2);
  p = find_pointee (d, "*");
  g_assert_nonnull (p);
  g_assert_true (p->leaf);
  g_assert_true (p->wildcard);
  g_assert_cmpuint (p->line, ==, 7);
  g_assert_cmpuint (p->column, ==, 5);

  g_assert_true (tm_dsl_add_string (b, "ns.ds", ns, -1, &error));
  g_assert_no_error (error);
  d = tm_dsl_lookup (b, "java.util.LinkedList");
  g_assert_nonnull (d);
  g_assert_true (d->is_head);
  g_assert_cmpuint (d->line, ==, 4);
  g_assert_cmpuint (d->column, ==, 8);
  g_assert_cmpstr (d->pointees[0].pattern, ==, "*");
  g_assert_false (d->pointees[0].leaf);
  d = tm_dsl_lookup (b, "java.util.LinkedList$Node");
  g_assert_nonnull (d);
  g_assert_nonnull (find_pointee (d, "java.util.LinkedList$Node"));
  g_assert_true (find_pointee (d, "*")->leaf);
  g_assert_null (tm_dsl_lookup (b, "LinkedList"));
  g_assert_null (tm_dsl_warnings (b)[0]);
}

static void
test_names (void)
{
  const char *text =
    "namespace com.example {\n"
    "  DS Cache { java.util.HashMap; Entry[]; (*Key); (Val*); int[]; byte[][]; }\n"
    "  Entry[] { Entry; }\n"
    "  Entry{(*)}\n"             /* last ';' may be left out */
    "  DS { }\n"                 /* a type that happens to be named DS */
    "}\n"
    "DS org.Top$Inner[][] {}\n";
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(GError) error = NULL;
  const TmDslDescription *d;

  g_assert_true (tm_dsl_add_string (dsl, "names.ds", text, -1, &error));
  g_assert_no_error (error);
  d = tm_dsl_lookup (dsl, "com.example.Cache");
  g_assert_nonnull (d);
  g_assert_cmpuint (d->n_pointees, ==, 6);
  g_assert_cmpstr (d->pointees[0].pattern, ==, "java.util.HashMap");
  g_assert_cmpstr (d->pointees[1].pattern, ==, "com.example.Entry[]");
  g_assert_cmpstr (d->pointees[2].pattern, ==, "*Key");
  g_assert_true (d->pointees[2].leaf && d->pointees[2].wildcard);
  g_assert_cmpstr (d->pointees[3].pattern, ==, "com.example.Val*");
  g_assert_cmpstr (d->pointees[4].pattern, ==, "int[]");
  g_assert_cmpstr (d->pointees[5].pattern, ==, "byte[][]");
  g_assert_nonnull (tm_dsl_lookup (dsl, "com.example.Entry[]"));
  d = tm_dsl_lookup (dsl, "com.example.Entry");
  g_assert_nonnull (d);
  g_assert_cmpuint (d->n_pointees, ==, 1);
  d = tm_dsl_lookup (dsl, "com.example.DS");
  g_assert_nonnull (d);
  g_assert_false (d->is_head);
  d = tm_dsl_lookup (dsl, "org.Top$Inner[][]");
  g_assert_nonnull (d);
  g_assert_true (d->is_head);
  g_assert_cmpuint (d->n_pointees, ==, 0);
}

typedef struct {
  const char *text;
  const char *message;
} ErrorCase;

static void
test_errors (void)
{
  static const ErrorCase cases[] = {
    { "DS a.B {\n  a.C\n    a.D;\n}\n", "java.util.ds:3:5: expected ';' or '}' after pointee" },
    { "DS a.B {\n  a.C;\n", "java.util.ds:3:1: expected pointee or '}' before end of file (description opened at 1:4)" },
    { "DS a.B a.C;", "java.util.ds:1:8: expected '{' after type name, found a name" },
    { "DS a.B { (a.C; }", "java.util.ds:1:14: expected ')' after leaf pattern, found ';'" },
    { "DS a.B { (); }", "java.util.ds:1:11: expected type pattern after '(', found ')'" },
    { "DS a.B { ; }", "java.util.ds:1:10: expected pointee or '}', found ';'" },
    { "DS a.* { }", "java.util.ds:1:4: '*' is not allowed in described type name 'a.*'" },
    { "a..B { }", "java.util.ds:1:1: invalid described type name 'a..B'" },
    { "\n\n  { }", "java.util.ds:3:3: expected a type name or 'DS', found '{'" },
    { "a.B { c.D; } %", "java.util.ds:1:14: unexpected character '%'" },
    { "a.B { c.D; }\n/* open", "java.util.ds:2:1: unterminated comment" },
    { "a.B[ { }", "java.util.ds:1:4: expected ']' after '['" },
    { "a.B[]x { }", "java.util.ds:1:6: unexpected character after '[]'" },
    { "namespace a.b {\n  namespace c { }\n}", "java.util.ds:2:3: namespaces cannot be nested" },
    { "namespace a.b { X { } ", "java.util.ds:1:23: expected '}' closing namespace 'a.b' (opened at 1:11) before end of file" },
    { "namespace a.* { }", "java.util.ds:1:11: '*' is not allowed in namespace name 'a.*'" },
    { "namespace a.b[] { }", "java.util.ds:1:11: '[]' is not allowed in namespace name 'a.b[]'" },
    { "namespace a.b ;", "java.util.ds:1:15: expected '{' after namespace name, found ';'" },
    /* columns count characters, not bytes */
    { "DS caf\xc3\xa9.B { x y }", "java.util.ds:1:15: expected ';' or '}' after pointee" },
    { "a.B { c\x01 }", "java.util.ds:1:8: unexpected byte 0x01" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TmDsl) dsl = tm_dsl_new ();
      g_autoptr(GError) error = NULL;

      g_test_message ("case %" G_GSIZE_FORMAT ": %s", i, cases[i].text);
      g_assert_false (tm_dsl_add_string (dsl, "java.util.ds", cases[i].text, -1, &error));
      g_assert_error (error, TM_ERROR, TM_ERROR_FORMAT);
      g_assert_cmpstr (error->message, ==, cases[i].message);
      g_assert_cmpuint (tm_dsl_n_descriptions (dsl), ==, 0);
    }
}

static void
write_file (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
}

static void
test_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tm-dsl-XXXXXX", &error);
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autofree char *b_path = NULL;
  g_autofree char *a_path = NULL;
  g_autofree char *user = NULL;
  const char * const *warnings;
  const TmDslDescription *d;

  g_assert_no_error (error);
  write_file (dir, "a.ds", "DS x.Map { x.Node[]; }\nx.Node { x.Node; (*); }\n");
  write_file (dir, "b.ds", "DS x.Broken { x.Part; }\nDS x.Map { oops }}\n");
  write_file (dir, "c.ds", "// later files win\nDS x.List { java.lang.Object[]; }\n  x.Node { (*); }\n");
  write_file (dir, "notes.txt", "not a description file {");

  g_assert_cmpuint (tm_dsl_add_directory (dsl, dir, &error), ==, 2);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_dsl_n_descriptions (dsl), ==, 3);
  /* nothing of the broken file: not even what came before the error */
  g_assert_null (tm_dsl_lookup (dsl, "x.Broken"));
  g_assert_cmpuint (tm_dsl_lookup (dsl, "x.Map")->n_pointees, ==, 1);
  d = tm_dsl_lookup (dsl, "x.Node");
  g_assert_cmpuint (d->n_pointees, ==, 1);
  g_assert_cmpuint (d->line, ==, 3);
  g_assert_cmpuint (d->column, ==, 3);
  g_assert_true (g_str_has_suffix (d->file, "c.ds"));
  g_assert_nonnull (tm_dsl_lookup (dsl, "x.List"));

  warnings = tm_dsl_warnings (dsl);
  b_path = g_build_filename (dir, "b.ds", NULL);
  a_path = g_build_filename (dir, "a.ds", NULL);
  g_assert_nonnull (warnings[0]);
  g_assert_nonnull (warnings[1]);
  g_assert_null (warnings[2]);
  {
    g_autofree char *expect0 = g_strdup_printf ("%s:2:18: expected a type name or 'DS', found '}'", b_path);
    g_autofree char *c_path = g_build_filename (dir, "c.ds", NULL);
    g_autofree char *expect1 = g_strdup_printf ("%s:3:3: description of x.Node replaces the one at %s:2:1",
                                                c_path, a_path);
    g_assert_cmpstr (warnings[0], ==, expect0);
    g_assert_cmpstr (warnings[1], ==, expect1);
  }

  /* a missing file names itself */
  g_assert_false (tm_dsl_add_file (dsl, "/nonexistent/user.ds", &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_FAILED);
  g_assert_true (g_str_has_prefix (error->message, "/nonexistent/user.ds: "));
  g_clear_error (&error);
  g_assert_cmpuint (tm_dsl_add_directory (dsl, "/nonexistent", &error), ==, 0);
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* the user's file replaces a description of the library */
  user = g_build_filename (dir, "user.ds", NULL);
  write_file (dir, "user.ds", "DS x.Map { x.Node[]; (x.Extra); }");
  g_assert_true (tm_dsl_add_file (dsl, user, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tm_dsl_lookup (dsl, "x.Map")->n_pointees, ==, 2);
  g_assert_cmpuint (tm_dsl_n_descriptions (dsl), ==, 3);

  for (const char *names[] = { "a.ds", "b.ds", "c.ds", "notes.txt", "user.ds" }, **n = names;
       n < names + G_N_ELEMENTS (names); n++)
    {
      g_autofree char *path = g_build_filename (dir, *n, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

static void
test_pattern_match (void)
{
  g_assert_true (tm_dsl_pattern_match ("*", "java.util.HashMap"));
  g_assert_true (tm_dsl_pattern_match ("*", ""));
  g_assert_true (tm_dsl_pattern_match ("*Node", "java.util.HashMap$Node"));
  g_assert_false (tm_dsl_pattern_match ("*Node", "java.util.HashMap$Node[]"));
  g_assert_true (tm_dsl_pattern_match ("java.util.*", "java.util.concurrent.ConcurrentHashMap"));
  g_assert_true (tm_dsl_pattern_match ("java.*.Hash*$Node", "java.util.HashMap$Node"));
  g_assert_false (tm_dsl_pattern_match ("java.*.Hash*$Node", "java.util.HashMap$TreeNode"));
  g_assert_true (tm_dsl_pattern_match ("a*a*a", "aaaaa"));
  g_assert_false (tm_dsl_pattern_match ("a*a*ab", "aaaaa"));
  g_assert_true (tm_dsl_pattern_match ("x.Y", "x.Y"));
  g_assert_false (tm_dsl_pattern_match ("x.Y", "x.YZ"));
  g_assert_false (tm_dsl_pattern_match ("x.Y", "x.X"));
}

/* Mutated library text never crashes the parser, and every accepted or
 * rejected text leaves a consistent set. */
static void
test_mutations (void)
{
  g_autofree char *dir = tm_dsl_library_dir ();
  g_autofree char *path = g_build_filename (dir, "java.util.ds", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  GRand *rand = g_rand_new_with_seed (7);

  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  g_assert_no_error (error);
  for (guint round = 0; round < 3000; round++)
    {
      g_autofree char *copy = g_memdup2 (text, len);
      g_autoptr(TmDsl) dsl = tm_dsl_new ();
      GError *e = NULL;
      static const char alphabet[] = "{}();*.$[] \n/aZ0\x80\xff";
      guint n = g_rand_int_range (rand, 1, 4);

      for (guint k = 0; k < n; k++)
        copy[g_rand_int_range (rand, 0, (gint32) len)] = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      if (tm_dsl_add_string (dsl, "m.ds", copy, g_rand_int_range (rand, 0, (gint32) len + 1), &e))
        g_assert_no_error (e);
      else
        {
          g_assert_error (e, TM_ERROR, TM_ERROR_FORMAT);
          g_assert_true (g_str_has_prefix (e->message, "m.ds:"));
          g_assert_cmpuint (tm_dsl_n_descriptions (dsl), ==, 0);
          g_error_free (e);
        }
    }
  g_rand_free (rand);
}

/* ---- the shipped library against the JDK 17 fixture ---- */

typedef struct {
  GHashTable *classes;   /* name -> TRUE */
  GHashTable *supers;    /* name -> GPtrArray of superclass names */
  GHashTable *fields;    /* name -> GPtrArray of "field decl-type" */
  GHashTable *edges;     /* name -> GPtrArray of "field actual-type" */
} Fixture;

static void
multimap_add (GHashTable *map, const char *key, char *value)
{
  GPtrArray *list = g_hash_table_lookup (map, key);

  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (map, g_strdup (key), list);
    }
  g_ptr_array_add (list, value);
}

static void
fixture_load (Fixture *fx)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "dsl", "jdk17-collections.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "# openjdk version \"17."));

  fx->classes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fx->supers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  fx->fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  fx->edges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);

  lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l != NULL; l++)
    {
      g_auto(GStrv) w = g_strsplit (*l, " ", 4);
      guint n = g_strv_length (w);

      if (n == 2 && strcmp (w[0], "CLASS") == 0)
        g_hash_table_add (fx->classes, g_strdup (w[1]));
      else if (n == 3 && strcmp (w[0], "SUPER") == 0)
        multimap_add (fx->supers, w[1], g_strdup (w[2]));
      else if (n == 4 && strcmp (w[0], "FIELD") == 0)
        multimap_add (fx->fields, w[1], g_strdup_printf ("%s %s", w[2], w[3]));
      else if (n == 4 && strcmp (w[0], "EDGE") == 0)
        multimap_add (fx->edges, w[1], g_strdup_printf ("%s %s", w[2], w[3]));
    }
  g_assert_cmpuint (g_hash_table_size (fx->classes), >, 50);
}

static void
fixture_clear (Fixture *fx)
{
  g_hash_table_unref (fx->classes);
  g_hash_table_unref (fx->supers);
  g_hash_table_unref (fx->fields);
  g_hash_table_unref (fx->edges);
}

static gboolean
class_exists (Fixture *fx, const char *type)
{
  g_autofree char *base = g_strdup (type);
  char *bracket = strchr (base, '[');

  if (g_hash_table_contains (fx->classes, type))
    return TRUE;
  if (bracket != NULL)
    *bracket = '\0';
  return g_hash_table_contains (fx->classes, base);
}

/* `sub` is `type` or one of its subclasses */
static gboolean
is_a (Fixture *fx, const char *sub, const char *type)
{
  GPtrArray *supers = g_hash_table_lookup (fx->supers, sub);

  if (strcmp (sub, type) == 0)
    return TRUE;
  for (guint i = 0; supers != NULL && i < supers->len; i++)
    if (strcmp (g_ptr_array_index (supers, i), type) == 0)
      return TRUE;
  return FALSE;
}

static const char *
second_word (const char *s)
{
  return strchr (s, ' ') + 1;
}

static gboolean
pointee_matches (const TmDslDescription *d, const char *type, gboolean skip_star)
{
  for (guint i = 0; i < d->n_pointees; i++)
    {
      if (skip_star && strcmp (d->pointees[i].pattern, "*") == 0)
        continue;
      if (tm_dsl_pattern_match (d->pointees[i].pattern, type))
        return TRUE;
    }
  return FALSE;
}

static void
test_library (void)
{
  g_autoptr(TmDsl) dsl = NULL;
  g_autoptr(GError) error = NULL;
  Fixture fx;
  static const char *const required[] = {
    "java.util.HashMap", "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.HashSet",
    "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.ArrayList", "java.util.LinkedList",
    "java.util.ArrayDeque", "java.util.PriorityQueue", "java.util.Vector", "java.util.Stack",
    "java.util.Hashtable", "java.util.Properties", "java.util.IdentityHashMap", "java.util.WeakHashMap",
    "java.util.EnumMap", "java.util.concurrent.ConcurrentHashMap", "java.util.concurrent.ConcurrentLinkedQueue",
    "java.util.concurrent.ConcurrentSkipListMap", "java.util.concurrent.CopyOnWriteArrayList",
    "java.util.concurrent.LinkedBlockingQueue", "java.util.concurrent.ArrayBlockingQueue",
  };

  dsl = tm_dsl_new_default (&error);
  g_assert_no_error (error);
  g_assert_nonnull (dsl);
  /* every shipped file parses, and no type is described twice */
  g_assert_null (tm_dsl_warnings (dsl)[0]);
  for (gsize i = 0; i < G_N_ELEMENTS (required); i++)
    {
      const TmDslDescription *d = tm_dsl_lookup (dsl, required[i]);

      g_test_message ("required %s", required[i]);
      g_assert_nonnull (d);
      g_assert_true (d->is_head);
    }

  fixture_load (&fx);
  for (guint i = 0; i < tm_dsl_n_descriptions (dsl); i++)
    {
      const TmDslDescription *d = tm_dsl_get (dsl, i);
      GPtrArray *fields = g_hash_table_lookup (fx.fields, d->type);
      GPtrArray *edges = g_hash_table_lookup (fx.edges, d->type);
      gboolean is_array = g_str_has_suffix (d->type, "[]");
      g_autofree char *element = is_array ? g_strndup (d->type, strlen (d->type) - 2) : NULL;

      g_test_message ("%s:%u: %s", d->file, d->line, d->type);
      g_assert_true (class_exists (&fx, d->type));
      /* a described type has references to describe */
      g_assert_true (is_array || (fields != NULL && fields->len > 0));

      for (guint j = 0; j < d->n_pointees; j++)
        {
          const char *p = d->pointees[j].pattern;
          gboolean found = FALSE;

          g_test_message ("  pointee %s", p);
          if (strcmp (p, "*") == 0)
            {
              /* something the other pointees do not cover: the elements */
              for (guint k = 0; edges != NULL && k < edges->len && !found; k++)
                found = !pointee_matches (d, second_word (g_ptr_array_index (edges, k)), TRUE);
              g_assert_true (found);
              continue;
            }
          g_assert_false (d->pointees[j].wildcard);
          g_assert_true (class_exists (&fx, p));
          /* seen in a populated instance ... */
          for (guint k = 0; edges != NULL && k < edges->len && !found; k++)
            found = strcmp (second_word (g_ptr_array_index (edges, k)), p) == 0;
          /* ... or declared with that type or a superclass other than Object */
          for (guint k = 0; fields != NULL && k < fields->len && !found; k++)
            {
              const char *decl = second_word (g_ptr_array_index (fields, k));
              found = strcmp (decl, "java.lang.Object") != 0 && is_a (&fx, p, decl);
            }
          if (is_array && !found)
            found = is_a (&fx, p, element);
          g_assert_true (found);
        }

      /* completeness: every reference seen from this type to a part of a
       * collection (java.util, not locks or counters) is described */
      for (guint k = 0; edges != NULL && k < edges->len; k++)
        {
          const char *target = second_word (g_ptr_array_index (edges, k));

          if (!g_str_has_prefix (target, "java.util.") ||
              g_str_has_prefix (target, "java.util.concurrent.locks.") ||
              g_str_has_prefix (target, "java.util.concurrent.atomic."))
            continue;
          g_test_message ("  edge %s", (const char *) g_ptr_array_index (edges, k));
          g_assert_true (pointee_matches (d, target, TRUE));
        }
    }
  fixture_clear (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dsl/spec-example", test_spec_example);
  g_test_add_func ("/dsl/names", test_names);
  g_test_add_func ("/dsl/errors", test_errors);
  g_test_add_func ("/dsl/files", test_files);
  g_test_add_func ("/dsl/pattern-match", test_pattern_match);
  g_test_add_func ("/dsl/mutations", test_mutations);
  g_test_add_func ("/dsl/library-matches-jdk17", test_library);
  return g_test_run ();
}
