/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Synthetic traces: a small simulated Java web application whose heap is
 * kept as explicit structures (so that reference graphs are exact), plus
 * short-lived garbage.  The planted phases are documented in tm-synth.h.
 *
 * Every structure object has a known owner, and every GC collects all
 * garbage, so "live after GC n" and "reachable at GC n" agree exactly.
 */
#include "tm-synth.h"
#include "tm-trace.h"
#include "tm-error.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

/* ---- vocabulary: types, frames, sites, threads -------------------------- */

enum {
  T_STRING = 1, T_BYTES, T_OBJECTS, T_CHM, T_CHM_NODE, T_CHM_TABLE, T_HASHMAP, T_HASHMAP_NODE,
  T_HASHMAP_TABLE, T_ARRAYLIST, T_STRINGBUILDER, T_THREAD, T_JOURNEY_KEY, T_JOURNEY,
  T_SESSION, T_REQUEST, T_APP_CONTEXT, T_BOOTSTRAP, T_RECORD, T_REPORT_LINE, T_CHARS,
  T_LHM, T_LHM_ENTRY, T_PRICE_KEY, T_PRICE, T_LBQ, T_LBQ_NODE, T_JOB,
  N_TYPES
};

static const struct { const char *name; guint32 flags; } type_defs[N_TYPES] = {
  [T_STRING] = { "java.lang.String", 0 },
  [T_BYTES] = { "byte[]", TM_TYPE_FLAG_PRIM_ARRAY },
  [T_OBJECTS] = { "java.lang.Object[]", TM_TYPE_FLAG_REF_ARRAY },
  [T_CHM] = { "java.util.concurrent.ConcurrentHashMap", 0 },
  [T_CHM_NODE] = { "java.util.concurrent.ConcurrentHashMap$Node", 0 },
  [T_CHM_TABLE] = { "java.util.concurrent.ConcurrentHashMap$Node[]", TM_TYPE_FLAG_REF_ARRAY },
  [T_HASHMAP] = { "java.util.HashMap", 0 },
  [T_HASHMAP_NODE] = { "java.util.HashMap$Node", 0 },
  [T_HASHMAP_TABLE] = { "java.util.HashMap$Node[]", TM_TYPE_FLAG_REF_ARRAY },
  [T_ARRAYLIST] = { "java.util.ArrayList", 0 },
  [T_STRINGBUILDER] = { "java.lang.StringBuilder", 0 },
  [T_THREAD] = { "java.lang.Thread", 0 },
  [T_JOURNEY_KEY] = { "com.example.travel.JourneyKey", 0 },
  [T_JOURNEY] = { "com.example.travel.Journey", 0 },
  [T_SESSION] = { "com.example.web.Session", 0 },
  [T_REQUEST] = { "com.example.web.Request", 0 },
  [T_APP_CONTEXT] = { "com.example.app.AppContext", 0 },
  [T_BOOTSTRAP] = { "com.example.app.Bootstrap", 0 },
  [T_RECORD] = { "com.example.batch.Record", 0 },
  [T_REPORT_LINE] = { "com.example.report.ReportLine", 0 },
  [T_CHARS] = { "char[]", TM_TYPE_FLAG_PRIM_ARRAY },
  [T_LHM] = { "java.util.LinkedHashMap", 0 },
  [T_LHM_ENTRY] = { "java.util.LinkedHashMap$Entry", 0 },
  [T_PRICE_KEY] = { "com.example.catalog.PriceKey", 0 },
  [T_PRICE] = { "com.example.catalog.Price", 0 },
  [T_LBQ] = { "java.util.concurrent.LinkedBlockingQueue", 0 },
  [T_LBQ_NODE] = { "java.util.concurrent.LinkedBlockingQueue$Node", 0 },
  [T_JOB] = { "com.example.jobs.Job", 0 },
};

typedef struct { const char *method; const char *file; int line; } FrameDef;

static const FrameDef frame_defs[] = {
  /* 1 */ { "com.example.web.HttpHandler.handle(com.example.web.Request)", "HttpHandler.java", 21 },
  /* 2 */ { "com.example.web.SearchServlet.doGet(com.example.web.Request, com.example.web.Response)", "SearchServlet.java", 33 },
  /* 3 */ { "com.example.travel.BookingService.search(java.lang.String, java.time.LocalDate)", "BookingService.java", 87 },
  /* 4 */ { "com.example.travel.JourneyCache.lookup(com.example.travel.JourneyKey)", "JourneyCache.java", 42 },
  /* 5 */ { "com.example.travel.JourneyCache.lookup(com.example.travel.JourneyKey)", "JourneyCache.java", 45 },
  /* 6 */ { "com.example.travel.JourneyKey.<init>(java.lang.String, java.time.LocalDate)", "JourneyKey.java", 12 },
  /* 7 */ { "com.example.travel.Journey.<init>(java.lang.String, byte[])", "Journey.java", 18 },
  /* 8 */ { "com.example.web.RequestParser.parse(java.lang.String)", "RequestParser.java", 57 },
  /* 9 */ { "java.lang.String.<init>(byte[], byte)", "String.java", 4554 },
  /* 10 */ { "java.util.ArrayList.grow(int)", "ArrayList.java", 237 },
  /* 11 */ { "com.example.report.ReportRenderer.render(com.example.report.Report)", "ReportRenderer.java", 112 },
  /* 12 */ { "com.example.report.ReportRenderer.renderLine(com.example.report.ReportLine)", "ReportRenderer.java", 140 },
  /* 13 */ { "com.example.web.SessionManager.create(com.example.web.Request)", "SessionManager.java", 64 },
  /* 14 */ { "com.example.app.Bootstrap.preload(java.nio.file.Path)", "Bootstrap.java", 29 },
  /* 15 */ { "com.example.app.Main.main(java.lang.String[])", "Main.java", 15 },
  /* 16 */ { "com.example.batch.BatchJob.load(java.lang.String)", "BatchJob.java", 51 },
  /* 17 */ { "java.util.concurrent.ConcurrentHashMap.putVal(java.lang.Object, java.lang.Object, boolean)", "ConcurrentHashMap.java", 1075 },
  /* 18 */ { "java.util.concurrent.ConcurrentHashMap.initTable()", "ConcurrentHashMap.java", 2296 },
  /* 19 */ { "com.example.app.AppContext.<init>(java.util.Properties)", "AppContext.java", 40 },
  /* 20 */ { "java.util.HashMap.putVal(int, java.lang.Object, java.lang.Object, boolean, boolean)", "HashMap.java", 627 },
  /* 21 */ { "com.example.catalog.PriceCache.put(com.example.catalog.PriceKey, com.example.catalog.Price)", "PriceCache.java", 58 },
  /* 22 */ { "java.util.LinkedHashMap.newNode(int, java.lang.Object, java.lang.Object, java.util.HashMap$Node)", "LinkedHashMap.java", 256 },
  /* 23 */ { "com.example.jobs.JobQueue.submit(com.example.jobs.Job)", "JobQueue.java", 31 },
  /* 24 */ { "java.util.concurrent.LinkedBlockingQueue.offer(java.lang.Object)", "LinkedBlockingQueue.java", 417 },
  /* 25 */ { "com.example.jobs.Producer.run()", "Producer.java", 22 },
};

/* sites: frames innermost first, 0-terminated */
enum {
  S_REQUEST = 1, S_REQ_STRING, S_REQ_BYTES, S_LIST, S_LIST_GROW, S_KEY, S_KEY_STRING, S_JOURNEY,
  S_JOURNEY_BYTES, S_JOURNEY_STRING, S_CACHE_NODE, S_CACHE_TABLE, S_SB, S_SB_CHARS, S_REPORT_LINE,
  S_REPORT_STRING, S_SESSION, S_SESSION_NODE, S_SESSION_BYTES, S_SESSION_STRING, S_BOOT, S_BOOT_ARRAY,
  S_BOOT_BYTES, S_RECORD, S_RECORD_BYTES, S_CONTEXT, S_CONTEXT_MAP, S_CONTEXT_NODE, S_CONTEXT_STRING,
  S_CHM_INIT, S_PRICE_NODE, S_PRICE_KEY, S_PRICE, S_PRICE_BYTES, S_QUEUE, S_JOB, S_JOB_NODE,
  S_JOB_BYTES, N_SITES
};

static const int site_defs[N_SITES][4] = {
  [S_REQUEST] = { 1, 0 },
  [S_REQ_STRING] = { 9, 8, 1, 0 },
  [S_REQ_BYTES] = { 8, 1, 0 },
  [S_LIST] = { 2, 1, 0 },
  [S_LIST_GROW] = { 10, 2, 1, 0 },
  [S_KEY] = { 6, 3, 2, 0 },
  [S_KEY_STRING] = { 9, 6, 3, 0 },
  [S_JOURNEY] = { 7, 4, 3, 0 },
  [S_JOURNEY_BYTES] = { 5, 3, 2, 0 },
  [S_JOURNEY_STRING] = { 9, 7, 4, 0 },
  [S_CACHE_NODE] = { 17, 4, 3, 0 },
  [S_CACHE_TABLE] = { 18, 17, 4, 0 },
  [S_SB] = { 11, 2, 1, 0 },
  [S_SB_CHARS] = { 12, 11, 2, 0 },
  [S_REPORT_LINE] = { 11, 2, 1, 0 },
  [S_REPORT_STRING] = { 9, 12, 11, 0 },
  [S_SESSION] = { 13, 1, 0 },
  [S_SESSION_NODE] = { 17, 13, 1, 0 },
  [S_SESSION_BYTES] = { 13, 1, 0 },
  [S_SESSION_STRING] = { 9, 13, 1, 0 },
  [S_BOOT] = { 15, 0 },
  [S_BOOT_ARRAY] = { 14, 15, 0 },
  [S_BOOT_BYTES] = { 14, 15, 0 },
  [S_RECORD] = { 16, 15, 0 },
  [S_RECORD_BYTES] = { 16, 15, 0 },
  [S_CONTEXT] = { 19, 15, 0 },
  [S_CONTEXT_MAP] = { 19, 15, 0 },
  [S_CONTEXT_NODE] = { 20, 19, 15, 0 },
  [S_CONTEXT_STRING] = { 9, 19, 15, 0 },
  [S_CHM_INIT] = { 18, 17, 13, 0 },
  [S_PRICE_NODE] = { 22, 20, 21, 0 },
  [S_PRICE_KEY] = { 21, 3, 2, 0 },
  [S_PRICE] = { 21, 3, 2, 0 },
  [S_PRICE_BYTES] = { 21, 3, 2, 0 },
  [S_QUEUE] = { 23, 15, 0 },
  [S_JOB] = { 25, 0 },
  [S_JOB_NODE] = { 24, 23, 25, 0 },
  [S_JOB_BYTES] = { 25, 0 },
};

enum { TH_MAIN = 1, TH_WORKER1, TH_WORKER2, TH_WORKER3, TH_WORKER4, TH_REPORT, TH_BATCH, N_THREADS };
static const char *thread_names[N_THREADS] = {
  NULL, "main", "http-worker-1", "http-worker-2", "http-worker-3", "http-worker-4", "report-renderer", "batch-loader"
};

enum { SP_EDEN = 1, SP_SURVIVOR, SP_OLD, SP_META };

/* ---- the simulated heap -------------------------------------------------- */

/* A live object that is part of a structure. */
typedef struct {
  guint64 id;
  guint32 size;
  guint32 born_gc;      /* number of GCs before it was allocated */
  GArray *refs;         /* guint64 target ids, or NULL */
} Obj;

typedef struct {
  const TmSynthOptions *opt;
  TmTraceWriter *w;
  GRand   *rand;
  guint64  next_id;
  guint64  now_ns;
  guint32  gcs_done;
  guint    n_gcs;

  GHashTable *live;         /* id -> Obj* (structure objects) */
  GArray  *dying;           /* guint64 ids dying at the next GC */
  guint64  alloc_since_gc;  /* bytes */
  guint64  born_live_bytes; /* structure bytes born since the last GC that are alive */
  guint64  live_bytes;
  guint64  prev_survivor, prev_old;
  guint64  total_allocs, total_deaths;

  /* roots */
  GArray  *static_roots;    /* guint64 */
  GArray  *thread_roots;    /* guint64 (Thread objects) */

  /* the leaking cache */
  guint64  cache, cache_table;
  guint    cache_entries, cache_capacity;
  /* sessions: a ConcurrentHashMap of Session objects with fixed lifetimes */
  guint64  sessions, sessions_table;
  GQueue  *session_queue;   /* SessionEntry*, oldest first */
  /* warm-up spike */
  guint64  boot, boot_array;
  GArray  *boot_blocks;
  /* batch records (gc-overhead) */
  guint64  batch_list, batch_array;
  GArray  *batch_records;
  /* a bounded LRU cache (plateau): entries oldest first */
  guint64  lru, lru_table;
  GQueue  *lru_entries;     /* guint64 node ids (GUINT_TO_POINTER does not fit 64 bits: boxed) */
  /* a job queue whose consumer falls behind (backlog) */
  guint64  queue;
  GQueue  *jobs;            /* boxed guint64 node ids, oldest first */
} Sim;

typedef struct {
  guint64 node, key, session, attrs;
  guint32 expires_gc;
} SessionEntry;

static guint32
array_size (guint32 elems, guint32 elem_size)
{
  return (16 + elems * elem_size + 7) & ~7u;
}

static guint64
alloc_raw (Sim *s, guint type, guint site, guint thread, guint32 size, guint32 array_length)
{
  guint64 id = s->next_id++;

  tm_trace_writer_alloc (s->w, id, type, site, thread, size, 0, array_length);
  s->alloc_since_gc += size;
  s->total_allocs++;
  return id;
}

/* Garbage: dies at the next GC. */
static void
alloc_temp (Sim *s, guint type, guint site, guint thread, guint32 size, guint32 array_length)
{
  guint64 id = alloc_raw (s, type, site, thread, size, array_length);
  g_array_append_val (s->dying, id);
}

/* Part of a structure: lives until released. */
static guint64
alloc_obj (Sim *s, guint type, guint site, guint thread, guint32 size, guint32 array_length)
{
  Obj *o = g_new0 (Obj, 1);

  o->id = alloc_raw (s, type, site, thread, size, array_length);
  o->size = size;
  o->born_gc = s->gcs_done;
  g_hash_table_insert (s->live, &o->id, o);
  s->live_bytes += size;
  s->born_live_bytes += size;
  return o->id;
}

static void
add_ref (Sim *s, guint64 from, guint64 to)
{
  Obj *o = g_hash_table_lookup (s->live, &from);
  g_assert (o != NULL);
  if (o->refs == NULL)
    o->refs = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_val (o->refs, to);
}

static void
remove_ref (Sim *s, guint64 from, guint64 to)
{
  Obj *o = g_hash_table_lookup (s->live, &from);
  if (o == NULL || o->refs == NULL)
    return;
  for (guint i = 0; i < o->refs->len; i++)
    if (g_array_index (o->refs, guint64, i) == to)
      {
        g_array_remove_index_fast (o->refs, i);
        return;
      }
}

/* The object becomes unreachable: it dies at the next GC. */
static void
release (Sim *s, guint64 id)
{
  Obj *o = g_hash_table_lookup (s->live, &id);
  if (o == NULL)
    return;
  s->live_bytes -= o->size;
  if (o->born_gc == s->gcs_done)
    s->born_live_bytes -= o->size;
  g_array_append_val (s->dying, id);
  g_hash_table_remove (s->live, &id);  /* frees o */
}

static guint32
rnd (Sim *s, guint32 lo, guint32 hi)
{
  return (guint32) g_rand_int_range (s->rand, (gint32) lo, (gint32) hi + 1);
}

static guint
worker (Sim *s)
{
  return TH_WORKER1 + rnd (s, 0, 3);
}

static guint64
new_string (Sim *s, guint site_string, guint site_bytes, guint thread, guint32 len, guint64 *bytes_out)
{
  guint64 str = alloc_obj (s, T_STRING, site_string, thread, 24, 0);
  guint64 bytes = alloc_obj (s, T_BYTES, site_bytes, thread, array_size (len, 1), len);
  add_ref (s, str, bytes);
  if (bytes_out)
    *bytes_out = bytes;
  return str;
}

/* ---- structures ----------------------------------------------------------- */

static void
build_context (Sim *s)
{
  guint64 ctx = alloc_obj (s, T_APP_CONTEXT, S_CONTEXT, TH_MAIN, 40, 0);
  guint64 map = alloc_obj (s, T_HASHMAP, S_CONTEXT_MAP, TH_MAIN, 48, 0);
  guint n = 64 + (guint) (64 * s->opt->scale);
  guint cap = 1;
  guint64 table;

  while (cap < n * 4 / 3)
    cap *= 2;
  table = alloc_obj (s, T_HASHMAP_TABLE, S_CONTEXT_NODE, TH_MAIN, array_size (cap, 4), cap);
  g_array_append_val (s->static_roots, ctx);
  add_ref (s, ctx, map);
  add_ref (s, map, table);
  for (guint i = 0; i < n; i++)
    {
      guint64 node = alloc_obj (s, T_HASHMAP_NODE, S_CONTEXT_NODE, TH_MAIN, 32, 0);
      guint64 k = new_string (s, S_CONTEXT_STRING, S_CONTEXT_STRING, TH_MAIN, rnd (s, 8, 24), NULL);
      guint64 v = new_string (s, S_CONTEXT_STRING, S_CONTEXT_STRING, TH_MAIN, rnd (s, 16, 200), NULL);
      add_ref (s, table, node);
      add_ref (s, node, k);
      add_ref (s, node, v);
    }
}

static void
build_threads (Sim *s)
{
  for (guint t = TH_MAIN; t < N_THREADS; t++)
    {
      /* Threads exist before recording starts: site 0, as a recorder that
       * discovers them would write. */
      Obj *o = g_new0 (Obj, 1);
      o->id = s->next_id++;
      o->size = 120;
      o->born_gc = 0;
      tm_trace_writer_alloc (s->w, o->id, T_THREAD, 0, 0, o->size, 0, 0);
      s->total_allocs++;
      s->alloc_since_gc += o->size;
      s->live_bytes += o->size;
      s->born_live_bytes += o->size;
      g_hash_table_insert (s->live, &o->id, o);
      g_array_append_val (s->thread_roots, o->id);
    }
}

static void
build_maps (Sim *s)
{
  s->cache = alloc_obj (s, T_CHM, S_CACHE_NODE, TH_MAIN, 64, 0);
  s->cache_capacity = 16;
  s->cache_table = alloc_obj (s, T_CHM_TABLE, S_CACHE_TABLE, TH_MAIN, array_size (16, 4), 16);
  add_ref (s, s->cache, s->cache_table);
  g_array_append_val (s->static_roots, s->cache);

  s->sessions = alloc_obj (s, T_CHM, S_CHM_INIT, TH_MAIN, 64, 0);
  s->sessions_table = alloc_obj (s, T_CHM_TABLE, S_CHM_INIT, TH_MAIN, array_size (1024, 4), 1024);
  add_ref (s, s->sessions, s->sessions_table);
  g_array_append_val (s->static_roots, s->sessions);
}

/* One leaked cache entry: the key class lacks equals/hashCode, so every
 * lookup misses and inserts a new entry. */
static void
leak_entry (Sim *s)
{
  guint th = worker (s);
  guint64 node = alloc_obj (s, T_CHM_NODE, S_CACHE_NODE, th, 32, 0);
  guint64 key = alloc_obj (s, T_JOURNEY_KEY, S_KEY, th, 24, 0);
  guint64 key_str = new_string (s, S_KEY_STRING, S_KEY_STRING, th, rnd (s, 12, 32), NULL);
  guint64 journey = alloc_obj (s, T_JOURNEY, S_JOURNEY, th, 32, 0);
  guint64 name = new_string (s, S_JOURNEY_STRING, S_JOURNEY_STRING, th, rnd (s, 16, 48), NULL);
  guint32 plen = rnd (s, 200, 600);
  guint64 payload = alloc_obj (s, T_BYTES, S_JOURNEY_BYTES, th, array_size (plen, 1), plen);

  add_ref (s, node, key);
  add_ref (s, node, journey);
  add_ref (s, key, key_str);
  add_ref (s, journey, name);
  add_ref (s, journey, payload);

  s->cache_entries++;
  if (s->cache_entries > s->cache_capacity * 3 / 4)
    {
      /* resize: a new table takes every node, the old one becomes garbage */
      Obj *old = g_hash_table_lookup (s->live, &s->cache_table);
      guint64 table;
      s->cache_capacity *= 2;
      table = alloc_obj (s, T_CHM_TABLE, S_CACHE_TABLE, th, array_size (s->cache_capacity, 4), s->cache_capacity);
      if (old->refs)
        for (guint i = 0; i < old->refs->len; i++)
          add_ref (s, table, g_array_index (old->refs, guint64, i));
      remove_ref (s, s->cache, s->cache_table);
      release (s, s->cache_table);
      add_ref (s, s->cache, table);
      s->cache_table = table;
    }
  add_ref (s, s->cache_table, node);
}

static void
new_session (Sim *s, guint32 lifetime)
{
  guint th = worker (s);
  SessionEntry *e = g_new0 (SessionEntry, 1);
  guint32 alen = rnd (s, 100, 400);

  e->node = alloc_obj (s, T_CHM_NODE, S_SESSION_NODE, th, 32, 0);
  e->key = new_string (s, S_SESSION_STRING, S_SESSION_STRING, th, 32, NULL);
  e->session = alloc_obj (s, T_SESSION, S_SESSION, th, 40, 0);
  e->attrs = alloc_obj (s, T_BYTES, S_SESSION_BYTES, th, array_size (alen, 1), alen);
  e->expires_gc = s->gcs_done + lifetime;
  add_ref (s, e->node, e->key);
  add_ref (s, e->node, e->session);
  add_ref (s, e->session, e->attrs);
  add_ref (s, s->sessions_table, e->node);
  g_queue_push_tail (s->session_queue, e);
}

static void
release_string (Sim *s, guint64 str)
{
  Obj *o = g_hash_table_lookup (s->live, &str);
  if (o && o->refs)
    for (guint i = 0; i < o->refs->len; i++)
      release (s, g_array_index (o->refs, guint64, i));
  release (s, str);
}

static void
expire_sessions (Sim *s)
{
  while (!g_queue_is_empty (s->session_queue))
    {
      SessionEntry *e = g_queue_peek_head (s->session_queue);
      if (e->expires_gc > s->gcs_done)
        break;
      g_queue_pop_head (s->session_queue);
      remove_ref (s, s->sessions_table, e->node);
      release (s, e->node);
      release_string (s, e->key);
      release (s, e->session);
      release (s, e->attrs);
      g_free (e);
    }
}

/* The object and everything it alone references become unreachable. */
static void
release_tree (Sim *s, guint64 id)
{
  Obj *o = g_hash_table_lookup (s->live, &id);
  g_autoptr(GArray) refs = NULL;

  if (o == NULL)
    return;
  if (o->refs)
    refs = g_array_ref (o->refs);
  release (s, id);
  if (refs)
    for (guint i = 0; i < refs->len; i++)
      release_tree (s, g_array_index (refs, guint64, i));
}

static void
queue_push (GQueue *q, guint64 id)
{
  g_queue_push_tail (q, g_memdup2 (&id, sizeof id));
}

static guint64
queue_pop (GQueue *q)
{
  guint64 *box = g_queue_pop_head (q);
  guint64 id = *box;

  g_free (box);
  return id;
}

/* One price in a LinkedHashMap used as an LRU cache of `capacity`
 * entries: once full, every put evicts the eldest entry. */
static void
lru_put (Sim *s, guint capacity)
{
  guint th = worker (s);
  guint64 node = alloc_obj (s, T_LHM_ENTRY, S_PRICE_NODE, th, 40, 0);
  guint64 key = alloc_obj (s, T_PRICE_KEY, S_PRICE_KEY, th, 24, 0);
  guint64 price = alloc_obj (s, T_PRICE, S_PRICE, th, 32, 0);
  guint32 len = rnd (s, 300, 700);
  guint64 quote = alloc_obj (s, T_BYTES, S_PRICE_BYTES, th, array_size (len, 1), len);

  add_ref (s, node, key);
  add_ref (s, node, price);
  add_ref (s, price, quote);
  add_ref (s, s->lru_table, node);
  queue_push (s->lru_entries, node);
  if (g_queue_get_length (s->lru_entries) > capacity)
    {
      guint64 eldest = queue_pop (s->lru_entries);

      remove_ref (s, s->lru_table, eldest);
      release_tree (s, eldest);
    }
}

/* The producer submits `n` jobs to the queue. */
static void
jobs_submit (Sim *s, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 node = alloc_obj (s, T_LBQ_NODE, S_JOB_NODE, TH_BATCH, 24, 0);
      guint64 job = alloc_obj (s, T_JOB, S_JOB, TH_BATCH, 32, 0);
      guint32 len = rnd (s, 600, 1000);
      guint64 payload = alloc_obj (s, T_BYTES, S_JOB_BYTES, TH_BATCH, array_size (len, 1), len);

      add_ref (s, node, job);
      add_ref (s, job, payload);
      add_ref (s, s->queue, node);
      queue_push (s->jobs, node);
    }
}

/* The consumer takes (and finishes) the `n` oldest jobs. */
static void
jobs_take (Sim *s, guint n)
{
  for (guint i = 0; i < n && !g_queue_is_empty (s->jobs); i++)
    {
      guint64 node = queue_pop (s->jobs);

      remove_ref (s, s->queue, node);
      release_tree (s, node);
    }
}

/* Short-lived request garbage; `factor` scales it (churn). */
static void
request_garbage (Sim *s, guint n, gboolean report)
{
  for (guint i = 0; i < n; i++)
    {
      guint th = worker (s);
      guint32 buf;

      (void) rnd (s, 16, 120);   /* an unused draw, kept so that seeds give the same traces as before */
      buf = rnd (s, 256, 8192);  /* request and response buffers */

      switch (i % 5)
        {
        case 0: alloc_temp (s, T_REQUEST, S_REQUEST, th, 32, 0); break;
        case 1: alloc_temp (s, T_STRING, S_REQ_STRING, th, 24, 0); break;
        case 2: alloc_temp (s, T_BYTES, S_REQ_BYTES, th, array_size (buf, 1), buf); break;
        case 3: alloc_temp (s, T_ARRAYLIST, S_LIST, th, 24, 0); break;
        default: alloc_temp (s, T_OBJECTS, S_LIST_GROW, th, array_size (10, 4), 10); break;
        }
      if (report)
        {
          guint32 clen = rnd (s, 256, 2048);
          alloc_temp (s, T_STRINGBUILDER, S_SB, TH_REPORT, 24, 0);
          alloc_temp (s, T_BYTES, S_SB_CHARS, TH_REPORT, array_size (clen, 1), clen);
          alloc_temp (s, T_STRING, S_REPORT_STRING, TH_REPORT, 24, 0);
          alloc_temp (s, T_REPORT_LINE, S_REPORT_LINE, TH_REPORT, 32, 0);
          alloc_temp (s, T_BYTES, S_REPORT_STRING, TH_REPORT, array_size (clen / 2, 1), clen / 2);
          alloc_temp (s, T_CHARS, S_SB_CHARS, TH_REPORT, array_size (clen, 2), clen);
          alloc_temp (s, T_STRING, S_REPORT_STRING, TH_REPORT, 24, 0);
          alloc_temp (s, T_BYTES, S_REPORT_STRING, TH_REPORT, array_size (clen / 2, 1), clen / 2);
          alloc_temp (s, T_STRINGBUILDER, S_SB, TH_REPORT, 24, 0);
          alloc_temp (s, T_BYTES, S_SB_CHARS, TH_REPORT, array_size (clen, 1), clen);
        }
    }
}

/* ---- GCs and graphs --------------------------------------------------------- */

static int
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static void
write_graph (Sim *s, guint32 gc_id)
{
  GHashTableIter it;
  gpointer value;
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  GArray *roots = g_array_new (FALSE, FALSE, sizeof (TmRootRecord));
  guint64 listed = 0;

  tm_trace_writer_graph_begin (s->w, gc_id);
  for (guint i = 0; i < s->static_roots->len; i++)
    {
      TmRootRecord r = { g_array_index (s->static_roots, guint64, i), TM_ROOT_KIND_STATIC, 0 };
      g_array_append_val (roots, r);
    }
  for (guint i = 0; i < s->thread_roots->len; i++)
    {
      TmRootRecord r = { g_array_index (s->thread_roots, guint64, i), TM_ROOT_KIND_THREAD_STACK, i + 1 };
      g_array_append_val (roots, r);
    }
  tm_trace_writer_roots (s->w, roots->len, (const TmRootRecord *) (gpointer) roots->data);

  /* REFS in ascending id order, as a heap walk in address order would. */
  g_hash_table_iter_init (&it, s->live);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      Obj *o = value;
      if (o->refs != NULL && o->refs->len > 0)
        g_array_append_val (ids, o->id);
    }
  g_array_sort (ids, cmp_u64);
  for (guint i = 0; i < ids->len; i++)
    {
      guint64 id = g_array_index (ids, guint64, i);
      Obj *o = g_hash_table_lookup (s->live, &id);
      tm_trace_writer_refs (s->w, o->id, o->refs->len, (const guint64 *) (gpointer) o->refs->data);
      listed++;
    }
  tm_trace_writer_graph_end (s->w, gc_id, listed);
  g_array_unref (ids);
  g_array_unref (roots);
}

static void
do_gc (Sim *s, TmGcKind kind, const char *cause, guint64 pause_ns, guint64 young_capacity)
{
  guint32 id = s->gcs_done + 1;
  TmSpaceUsageRecord u[4];
  guint64 survivor_after = s->born_live_bytes;
  guint64 old_after = s->live_bytes - survivor_after;
  const char *collector = kind == TM_GC_KIND_MAJOR ? "G1 Old Generation" : "G1 Young Generation";

  tm_trace_writer_gc_start (s->w, id, s->now_ns, kind, collector, cause);
  tm_trace_writer_deaths (s->w, id, (const guint64 *) (gpointer) s->dying->data, s->dying->len);
  s->total_deaths += s->dying->len;
  g_array_set_size (s->dying, 0);

  u[0] = (TmSpaceUsageRecord) { SP_EDEN, s->alloc_since_gc, 0, young_capacity };
  u[1] = (TmSpaceUsageRecord) { SP_SURVIVOR, s->prev_survivor, survivor_after, MAX (survivor_after * 2, young_capacity / 8) };
  u[2] = (TmSpaceUsageRecord) { SP_OLD, s->prev_old, old_after, MAX (old_after + old_after / 2, young_capacity) };
  u[3] = (TmSpaceUsageRecord) { SP_META, 24u << 20, 24u << 20, 32u << 20 };
  s->now_ns += pause_ns;
  tm_trace_writer_gc_end (s->w, id, s->now_ns, pause_ns, 4, u);

  s->prev_survivor = survivor_after;
  s->prev_old = old_after;
  s->alloc_since_gc = 0;
  s->born_live_bytes = 0;
  s->gcs_done = id;
}

/* ---- scenarios -------------------------------------------------------------- */

typedef struct {
  gboolean leak;   double leak_from;
  gboolean spike;  /* warm-up spike in the first 20% */
  gboolean churn;  double churn_from, churn_to;
  gboolean over;   double over_from, over_to;
  gboolean lru;    double lru_full;      /* bounded cache, full at this fraction */
  gboolean teardown;                     /* the last 2 GCs free the program's data at exit */
  gboolean oom;                          /* thrashes from 85%, OutOfMemoryError before the last 2 GCs */
  gboolean burst;  double burst_from, burst_to, burst_factor;  /* allocation x factor, GCs as often */
  gboolean backlog; double backlog_from; /* the consumer falls behind from here */
} Plan;

static gboolean
plan_for (const char *scenario, Plan *p)
{
  memset (p, 0, sizeof *p);
  if (g_strcmp0 (scenario, "steady") == 0)
    return TRUE;
  if (g_strcmp0 (scenario, "leak") == 0)
    {
      p->leak = TRUE; p->leak_from = 0.20; p->spike = TRUE;
      return TRUE;
    }
  if (g_strcmp0 (scenario, "churn") == 0)
    {
      p->churn = TRUE; p->churn_from = 0.40; p->churn_to = 0.60;
      return TRUE;
    }
  if (g_strcmp0 (scenario, "gc-overhead") == 0)
    {
      p->over = TRUE; p->over_from = 0.50; p->over_to = 0.70;
      return TRUE;
    }
  if (g_strcmp0 (scenario, "plateau") == 0)
    {
      p->lru = TRUE; p->lru_full = 0.30;
      return TRUE;
    }
  if (g_strcmp0 (scenario, "teardown") == 0)
    {
      p->leak = TRUE; p->leak_from = 0.20; p->teardown = TRUE;
      return TRUE;
    }
  if (g_strcmp0 (scenario, "oom") == 0)
    {
      p->leak = TRUE; p->leak_from = 0.20; p->oom = TRUE;
      return TRUE;
    }
  if (g_strcmp0 (scenario, "churn-burst") == 0)
    {
      p->burst = TRUE; p->burst_from = 0.10; p->burst_to = 0.90; p->burst_factor = 10;
      return TRUE;
    }
  if (g_strcmp0 (scenario, "backlog") == 0)
    {
      p->backlog = TRUE; p->backlog_from = 0.20;
      return TRUE;
    }
  if (g_strcmp0 (scenario, "mixed") == 0)
    {
      p->leak = TRUE; p->leak_from = 0.10;
      p->churn = TRUE; p->churn_from = 0.30; p->churn_to = 0.40;
      p->over = TRUE; p->over_from = 0.60; p->over_to = 0.70;
      return TRUE;
    }
  return FALSE;
}

void
tm_synth_options_init (TmSynthOptions *options)
{
  memset (options, 0, sizeof *options);
  options->scenario = "leak";
  options->seed = 1;
  options->scale = 1.0;
}

const char * const *
tm_synth_scenarios (void)
{
  static const char * const names[] = { "steady", "leak", "churn", "gc-overhead", "mixed", "plateau",
                                        "teardown", "oom", "churn-burst", "backlog", NULL };
  return names;
}

static void
write_vocabulary (Sim *s, const char *scenario)
{
  TmTraceHeader h = { 0 };
  g_autofree char *cmd = g_strdup_printf ("java -Xmx512m -jar example-app.jar --synthetic %s", scenario);
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, s->opt->seed);
  g_autofree char *scale = g_strdup_printf ("%g", s->opt->scale);

  h.version = 1;
  h.start_unix_ns = G_GUINT64_CONSTANT (1767225600) * 1000000000u;  /* fixed: reproducible files */
  h.vm_name = "Tidemark synthetic VM";
  h.vm_version = "17.0 (synthetic)";
  h.command_line = cmd;
  h.pointer_size = 8;
  h.alloc_sample_bytes = 0;
  h.flags = TM_TRACE_FLAG_GRAPHS | TM_TRACE_FLAG_DEATHS;
  tm_trace_writer_header (s->w, &h);
  tm_trace_writer_meta (s->w, "synth.scenario", scenario);
  tm_trace_writer_meta (s->w, "synth.seed", seed);
  tm_trace_writer_meta (s->w, "synth.scale", scale);

  tm_trace_writer_space (s->w, SP_EDEN, TM_SPACE_KIND_YOUNG, "G1 Eden Space");
  tm_trace_writer_space (s->w, SP_SURVIVOR, TM_SPACE_KIND_SURVIVOR, "G1 Survivor Space");
  tm_trace_writer_space (s->w, SP_OLD, TM_SPACE_KIND_OLD, "G1 Old Gen");
  tm_trace_writer_space (s->w, SP_META, TM_SPACE_KIND_NON_HEAP, "Metaspace");
  for (guint t = 1; t < N_TYPES; t++)
    tm_trace_writer_type (s->w, t, type_defs[t].name, type_defs[t].flags);
  for (guint f = 0; f < G_N_ELEMENTS (frame_defs); f++)
    tm_trace_writer_frame (s->w, f + 1, frame_defs[f].method, frame_defs[f].file, frame_defs[f].line);
  for (guint si = 1; si < N_SITES; si++)
    {
      guint64 frames[4];
      guint32 depth = 0;
      while (depth < 4 && site_defs[si][depth] != 0)
        {
          frames[depth] = (guint64) site_defs[si][depth];
          depth++;
        }
      tm_trace_writer_site (s->w, si, depth, frames);
    }
  for (guint t = 1; t < N_THREADS; t++)
    tm_trace_writer_thread (s->w, t, thread_names[t]);
}

static void
free_obj (gpointer p)
{
  Obj *o = p;
  if (o->refs)
    g_array_unref (o->refs);
  g_free (o);
}

gboolean
tm_synth_write (const TmSynthOptions *opt, TmTraceWriter *w, GError **error)
{
  Sim s = { 0 };
  Plan plan;
  guint graph_every;
  double scale;
  guint temps_base, leak_per_gc, sessions_per_gc;

  g_return_val_if_fail (opt != NULL && w != NULL, FALSE);

  if (!plan_for (opt->scenario, &plan))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) tm_synth_scenarios ());
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("unknown scenario '%s' (known: %s)"),
                   opt->scenario ? opt->scenario : "", known);
      return FALSE;
    }
  if (!(opt->scale > 0) || opt->scale > 10000)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("scale must be in (0, 10000]"));
      return FALSE;
    }

  scale = opt->scale;
  s.opt = opt;
  s.w = w;
  s.rand = g_rand_new_with_seed ((guint32) (opt->seed ^ (opt->seed >> 32)));
  s.next_id = 1;
  s.n_gcs = opt->n_gcs ? opt->n_gcs : 200;
  s.live = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, free_obj);
  s.dying = g_array_new (FALSE, FALSE, sizeof (guint64));
  s.static_roots = g_array_new (FALSE, FALSE, sizeof (guint64));
  s.thread_roots = g_array_new (FALSE, FALSE, sizeof (guint64));
  s.session_queue = g_queue_new ();
  s.boot_blocks = g_array_new (FALSE, FALSE, sizeof (guint64));
  s.batch_records = g_array_new (FALSE, FALSE, sizeof (guint64));
  s.lru_entries = g_queue_new ();
  s.jobs = g_queue_new ();
  graph_every = opt->graph_every ? opt->graph_every : 10;

  temps_base = MAX (5, (guint) (800 * scale));
  leak_per_gc = MAX (1, (guint) (12 * scale));
  sessions_per_gc = MAX (1, (guint) (20 * scale));

  write_vocabulary (&s, opt->scenario);
  build_threads (&s);
  build_context (&s);
  build_maps (&s);
  if (plan.lru)
    {
      s.lru = alloc_obj (&s, T_LHM, S_PRICE_NODE, TH_MAIN, 56, 0);
      s.lru_table = alloc_obj (&s, T_HASHMAP_TABLE, S_PRICE_NODE, TH_MAIN, array_size (65536, 4), 65536);
      add_ref (&s, s.lru, s.lru_table);
      g_array_append_val (s.static_roots, s.lru);
    }
  if (plan.backlog)
    {
      s.queue = alloc_obj (&s, T_LBQ, S_QUEUE, TH_MAIN, 48, 0);
      g_array_append_val (s.static_roots, s.queue);
    }

  for (guint i = 0; i < s.n_gcs; i++)
    {
      double f = (double) i / s.n_gcs;
      gboolean in_churn = plan.churn && f >= plan.churn_from && f < plan.churn_to;
      gboolean in_over = plan.over && f >= plan.over_from && f < plan.over_to;
      gboolean in_burst = plan.burst && f >= plan.burst_from && f < plan.burst_to;
      gboolean at_exit = (plan.teardown || plan.oom) && i + 2 >= s.n_gcs;
      gboolean thrash = plan.oom && f >= 0.85 && !at_exit;
      guint64 interval = 100000000ull + rnd (&s, 0, 20000000) - 10000000;
      guint64 pause;
      TmGcKind kind = TM_GC_KIND_MINOR;
      const char *cause = "G1 Evacuation Pause";

      expire_sessions (&s);
      for (guint k = 0; k < sessions_per_gc; k++)
        new_session (&s, 5);

      if (plan.spike && f < 0.10)
        {
          /* warm-up: a preload cache that fills, then is dropped at 15% */
          if (s.boot == 0)
            {
              s.boot = alloc_obj (&s, T_BOOTSTRAP, S_BOOT, TH_MAIN, 24, 0);
              s.boot_array = alloc_obj (&s, T_OBJECTS, S_BOOT_ARRAY, TH_MAIN, array_size (4096, 4), 4096);
              add_ref (&s, s.boot, s.boot_array);
              g_array_append_val (s.static_roots, s.boot);
            }
          for (guint k = 0; k < leak_per_gc * 2; k++)
            {
              guint32 len = rnd (&s, 400, 1600);
              guint64 blk = alloc_obj (&s, T_BYTES, S_BOOT_BYTES, TH_MAIN, array_size (len, 1), len);
              add_ref (&s, s.boot_array, blk);
              g_array_append_val (s.boot_blocks, blk);
            }
        }
      if (plan.spike && s.boot_array != 0 && f >= 0.15)
        {
          for (guint k = 0; k < s.boot_blocks->len; k++)
            release (&s, g_array_index (s.boot_blocks, guint64, k));
          g_array_set_size (s.boot_blocks, 0);
          remove_ref (&s, s.boot, s.boot_array);
          release (&s, s.boot_array);
          s.boot_array = 0;
        }

      if (plan.leak && f >= plan.leak_from && !at_exit)
        for (guint k = 0; k < leak_per_gc; k++)
          leak_entry (&s);
      if (plan.oom && i + 2 == s.n_gcs)
        /* the heap is full: the next lookup throws, nobody catches it, and
         * the main thread dies; what follows is post-mortem */
        tm_trace_writer_oom (s.w, s.now_ns, s.gcs_done, worker (&s), TM_OOM_JAVA_HEAP, "Java heap space");
      if (at_exit && s.cache_table != 0)
        {
          /* the main thread has returned: the program clears its cache
           * on the way out */
          remove_ref (&s, s.cache, s.cache_table);
          release_tree (&s, s.cache_table);
          s.cache_table = 0;
        }
      if (plan.lru)
        {
          /* fills in the first lru_full of the run, then evicts as it puts */
          guint capacity = MAX (1, (guint) (plan.lru_full * s.n_gcs) * leak_per_gc * 2);
          for (guint k = 0; k < leak_per_gc * 2; k++)
            lru_put (&s, capacity);
        }
      if (plan.backlog)
        {
          /* 100 jobs per GC; from backlog_from on the consumer manages
           * only 100 of every 108 */
          guint per_gc = MAX (2, (guint) (100 * scale));
          jobs_submit (&s, f >= plan.backlog_from ? per_gc + per_gc * 8 / 100 : per_gc);
          jobs_take (&s, per_gc);
        }

      if (in_over)
        {
          /* a batch job holds many records: the old generation is nearly
           * full and the collector runs full GCs back to back */
          if (s.batch_list == 0)
            {
              s.batch_list = alloc_obj (&s, T_ARRAYLIST, S_RECORD, TH_BATCH, 24, 0);
              s.batch_array = alloc_obj (&s, T_OBJECTS, S_RECORD, TH_BATCH, array_size (65536, 4), 65536);
              add_ref (&s, s.batch_list, s.batch_array);
              g_array_append_val (s.static_roots, s.batch_list);
            }
          for (guint k = 0; k < leak_per_gc; k++)
            {
              guint64 r = alloc_obj (&s, T_RECORD, S_RECORD, TH_BATCH, 40, 0);
              guint64 rb = alloc_obj (&s, T_BYTES, S_RECORD_BYTES, TH_BATCH, array_size (256, 1), 256);
              add_ref (&s, s.batch_array, r);
              add_ref (&s, r, rb);
              g_array_append_val (s.batch_records, r);
              g_array_append_val (s.batch_records, rb);
            }
          interval = 30000000ull;
        }
      else if (s.batch_list != 0)
        {
          for (guint k = 0; k < s.batch_records->len; k++)
            release (&s, g_array_index (s.batch_records, guint64, k));
          g_array_set_size (s.batch_records, 0);
          remove_ref (&s, s.batch_list, s.batch_array);
          release (&s, s.batch_array);
          s.batch_array = 0;
          release (&s, s.batch_list);
          for (guint k = 0; k < s.static_roots->len; k++)
            if (g_array_index (s.static_roots, guint64, k) == s.batch_list)
              g_array_remove_index (s.static_roots, k);
          s.batch_list = 0;
        }

      request_garbage (&s, in_churn ? temps_base : temps_base, in_churn);
      if (in_churn)
        request_garbage (&s, temps_base * 2, FALSE);
      if (in_burst)
        {
          /* factor times the allocation; the young generation fills as
           * much sooner, so GCs come factor times as often */
          request_garbage (&s, (guint) (temps_base * (plan.burst_factor - 1)), FALSE);
          interval = (guint64) ((double) interval / plan.burst_factor);
        }

      if (thrash)
        interval = 30000000ull;   /* near the limit: full GCs back to back */
      s.now_ns += interval;
      if (thrash)
        {
          kind = TM_GC_KIND_MAJOR;
          cause = "Allocation Failure";
          pause = 14000000ull + rnd (&s, 0, 2000000);
        }
      else if (in_over)
        {
          kind = TM_GC_KIND_MAJOR;
          cause = "Allocation Failure";
          pause = 12000000ull + rnd (&s, 0, 1000000);
        }
      else if ((i + 1) % 25 == 0)
        {
          kind = TM_GC_KIND_MAJOR;
          cause = "G1 Humongous Allocation";
          pause = 8000000ull + rnd (&s, 0, 4000000);
        }
      else
        pause = 1500000ull + rnd (&s, 0, 1000000);

      do_gc (&s, kind, cause, pause, (guint64) (64.0 * scale * 1024 * 1024));
      if ((graph_every != G_MAXUINT && s.gcs_done % graph_every == 0) || s.gcs_done == s.n_gcs ||
          (at_exit && graph_every != G_MAXUINT))
        {
          write_graph (&s, s.gcs_done);
          if (at_exit && plan.oom)
            tm_trace_writer_graph_context (s.w, s.gcs_done, TM_GRAPH_POST_MORTEM);
        }
    }

  tm_trace_writer_end (w, s.total_allocs, s.total_deaths, s.gcs_done, s.now_ns);

  g_rand_free (s.rand);
  g_hash_table_unref (s.live);
  g_array_unref (s.dying);
  g_array_unref (s.static_roots);
  g_array_unref (s.thread_roots);
  g_queue_free_full (s.session_queue, g_free);
  g_array_unref (s.boot_blocks);
  g_array_unref (s.batch_records);
  g_queue_free_full (s.lru_entries, g_free);
  g_queue_free_full (s.jobs, g_free);
  return TRUE;
}

gboolean
tm_synth_write_file (const TmSynthOptions *options, const char *path, GError **error)
{
  TmTraceWriter *w = tm_trace_writer_new_for_path (path, TRUE, error);
  gboolean ok;

  if (w == NULL)
    return FALSE;
  ok = tm_synth_write (options, w, error);
  if (ok)
    ok = tm_trace_writer_close (w, error);
  tm_trace_writer_free (w);
  return ok;
}
