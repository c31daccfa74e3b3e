/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared state of the GC log importer: the line reader hands every line
 * to the unified-logging or the legacy parser, which turn them into
 * TmGclogEvents; tm-gclog.c sorts those and feeds the TmTraceBuilder.
 */
#pragma once

/* Names and causes go to the trace's string pool (tm_trace_builder_intern),
 * so that pointers compare equal for equal strings and die with the trace. */

#include "tm-trace-builder.h"

#include <string.h>

G_BEGIN_DECLS

#define TM_GCLOG_MAX_USAGE 8

/* Inline: every line is tried against dozens of literal prefixes, and
 * with the literal in view the compiler turns strlen and memcmp into a
 * few compares (a third of the import time went to the calls). */
static inline gboolean
tm_gclog_has_prefix (const char *s, const char *end, const char *prefix)
{
  gsize n = strlen (prefix);
  return (gsize) (end - s) >= n && memcmp (s, prefix, n) == 0;
}

typedef enum {
  TM_GCLOG_FORMAT_UNKNOWN,
  TM_GCLOG_FORMAT_UJL,
  TM_GCLOG_FORMAT_LEGACY,
} TmGclogFormat;

/* Per-generation numbers as logged; G1 logs give region counts, turned
 * into bytes when the event is emitted (the region size may come later). */
typedef struct {
  guint64  space_id;
  guint64  before;
  guint64  after;
  guint64  committed;
  guint32  next;              /* index + 1 of the event's next entry, 0 = last */
  gboolean regions;
} TmGclogUsage;

typedef struct {
  gint64      jvm_id;         /* GC(n) or #n; -1 when the log has none */
  guint64     line;           /* where the event ends (for messages) */
  guint64     start_ns;
  guint64     end_ns;
  guint64     pause_ns;
  TmGcKind    kind;
  const char *name;           /* string pool: "Pause Young", "Garbage Collection"... */
  const char *cause;          /* string pool, never NULL */
  gboolean    has_heap;       /* the summary "A->B(C)" of the whole heap */
  guint64     heap_before;
  guint64     heap_after;
  guint64     heap_committed;
  guint       n_usage;        /* entries in TmGclogParser.usage, a list */
  guint32     usage_head;     /* index + 1, 0 = none */
  guint32     usage_tail;
  gboolean    open;           /* waiting for its end line */
  gboolean    cycle;          /* a ZGC/Shenandoah cycle collecting its pauses */
  gboolean    deleted;        /* merged into another event */
  gboolean    has_duration;   /* the end line carried a duration */
  gboolean    evac_failed;    /* to-space exhausted / overflow, promotion failed */
  gboolean    aborted;        /* ZGC "... Collection (cause) Aborted": the JVM exits during it */
  guint32     ages;           /* index + 1 of its age table in TmGclogParser.ages, 0 = none */
  /* -Xlog:gc+heap=debug "Heap before/after GC invocations=N (full M):"
   * blocks: the heap used and the full-GC counter around the GC */
  guint8      hb;             /* 1: the before block seen, 2: the after block */
  guint32     hb_full_before;
  guint32     hb_full_after;
  guint64     hb_used_before;
  guint64     hb_used_after;
  guint64     hb_committed;
} TmGclogEvent;

typedef struct {
  const char     *path;
  TmTraceBuilder *b;
  TmGclogFormat   format;

  GArray     *events;         /* TmGclogEvent */
  GArray     *usage;          /* TmGclogUsage of all events (most have none) */
  GHashTable *open_by_id;     /* jvm id -> event index + 1, for open events */
  GHashTable *space_ids;      /* pooled space name -> id (pointer keys) */
  GArray     *space_kinds;    /* TmSpaceKind by id (index 0 unused) */
  guint64     n_spaces;

  guint64     line_no;        /* 1-based number of the current line */
  guint64     n_lines_total;
  guint64     line_offset;    /* byte offset of the current line */
  guint64     now_ns;         /* time of the current line */
  gboolean    line_lone_ns;   /* the current line's only time is one "...ns" stamp */
  gboolean    have_lone_ns;
  guint64     lone_ns_base;   /* the first such stamp */
  gboolean    ns_monotonic;   /* they are timenanos: times count from lone_ns_base */
  gboolean    have_run_uptime;
  guint64     run_uptime_max; /* the highest uptime of this file's current JVM run */
  guint64     time_offset;    /* added to uptimes: the runs appended before this one */
  gboolean    have_uptime;
  gboolean    ujl_decorated;  /* lines carry [decorations] */
  guint       ujl_opaque;     /* decorations per line of a log decorated with hostname, pid or tid only */
  guint       ujl_n_decor;    /* decorations on the last decorated line */
  guint64     n_foreign_lines; /* undecorated lines in a decorated log */
  guint64     first_foreign_line;
  guint64     n_output_lines;  /* program output in a decorated log */
  guint64     first_output_line;
  gboolean    have_wall_base;
  gint64      wall_base_ms;   /* first wall-clock stamp (ms since epoch) */
  guint64     wall_base_uptime_ns;

  const char *collector;      /* string pool; NULL until known */
  gboolean    cycle_mode;     /* ZGC/Shenandoah: one event per GC id */
  gboolean    generational;   /* generational ZGC or Shenandoah */
  const char *gen_prefix;     /* generational ZGC: "Y: " or "O: " of the current line, else NULL */
  gboolean    line_debug;     /* the current line's level is debug or trace (a sub-phase) */
  guint64     region_bytes;   /* G1 region size */
  guint64     max_heap;
  guint64     heap_samples;   /* Epsilon's "Heap: ... used" lines */
  GHashTable *gc_ids;         /* GC(n) ids named before the first event */
  guint64     sampled_peak;   /* the most they say is used */
  const char *pending_cause;  /* Shenandoah "Trigger:" for the next cycle */
  GHashTable *evac_failed_ids; /* UJL GC ids with "To-space exhausted" (may precede the event) */
  GArray     *ages;           /* TmGcAges (gc = 0 until the GC is numbered) */
  guint32     pending_ages;   /* legacy: index + 1 of the table printed inside the record being read */

  char       *vm_version;
  char       *command_line;
  guint64     start_unix_ns;

  GArray     *phases;         /* TmGcPhase: concurrent phases, cycles, stalls */
  gint64      open_phase_id;  /* GC id of the concurrent phases that have started and not ended */
  guint       n_open_phases;

  guint64     n_concurrent_phases;
  guint64     concurrent_ns;
  guint64     n_concurrent_cycles;
  guint64     n_safepoint_lines;
  guint64     n_bad_lines;
  gboolean    saturated;      /* a heap figure was past 2^64 bytes (reported once) */

  gboolean    exit_summary;   /* saw the JVM's heap summary at exit */
  gboolean    heap_block;     /* inside a -XX:+PrintHeapAtGC block */
  gboolean    prev_gc_tag;    /* the last decorated line had a gc tag */

  /* unified logging: a "Heap before/after GC" block being read */
  gboolean    hb_active;
  gboolean    hb_after;
  gint64      hb_id;
  guint64     hb_time;
  guint32     hb_full;
  guint64     hb_used;
  guint64     hb_committed;

  /* legacy: a record that spans lines */
  GString    *rec;
  int         rec_depth;      /* '[' minus ']' in rec, kept as it grows */
  guint64     rec_line;
  guint64     rec_offset;
  gint64      last_event;     /* index of the last legacy event, for G1 detail lines */
  GString    *detail;         /* a G1 detail line split by a record printed into it */
  int         detail_depth;
  gint64      legacy_cycle;   /* JDK 8 Shenandoah logs have no GC ids */
  gboolean    legacy_banner_again; /* "CommandLine flags:" after GCs: another run's log follows */
  gboolean    legacy_cycle_marked;
} TmGclogParser;

void     tm_gclog_warn          (TmGclogParser *p, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* An uptime stamp to the timeline's time (logs of several runs appended);
 * jvm_start: the line is one a JVM writes first ("Using G1"). */
guint64  tm_gclog_uptime         (TmGclogParser *p, guint64 raw, gboolean jvm_start);
TmGclogEvent *tm_gclog_new_event (TmGclogParser *p, gint64 jvm_id);
guint64  tm_gclog_space          (TmGclogParser *p, const char *name, TmSpaceKind kind);
void     tm_gclog_add_usage      (TmGclogParser *p, TmGclogEvent *e, guint64 space_id, guint64 before, guint64 after,
                                  guint64 committed, gboolean regions);
void     tm_gclog_set_collector  (TmGclogParser *p, const char *name);
/* A phase that ended at end_ns after dur_ns; its name is the message's
 * words up to the first "(...)" group or number of [name, name_end). */
void     tm_gclog_add_phase      (TmGclogParser *p, TmGcPhaseKind kind, gint64 jvm_id, guint64 end_ns,
                                  guint64 dur_ns, const char *name, const char *name_end, const char *detail);
/* A UJL "Concurrent ..." line of GC jvm_id: a start line (no duration)
 * opens a phase, an end line closes one; returns the end line's depth. */
guint    tm_gclog_phase_depth    (TmGclogParser *p, gint64 jvm_id, gboolean end_line);

/* Number parsing; all return FALSE and leave *s alone on failure. */
/* -Xlog:gc+age / -XX:+PrintTenuringDistribution lines ("Desired survivor
 * size ...", "Age table with threshold ...", "- age   1: ..."): into
 * table *ages (index + 1, a new one when 0).  FALSE if not such a line. */
gboolean tm_gclog_age_line      (TmGclogParser *p, const char *s, const char *end, guint32 *ages);

gboolean tm_gclog_parse_size     (const char **s, const char *end, guint64 *bytes);
gboolean tm_gclog_parse_decimal  (const char **s, const char *end, guint scale_pow10, guint64 *value);
gboolean tm_gclog_parse_transition (const char **s, const char *end, guint64 *before, guint64 *after,
                                    guint64 *committed);
void     tm_gclog_fit_to_total   (guint64 total, guint64 *young, guint64 *survivor, guint64 *old);
const char *tm_gclog_find_transition (const char *s, const char *end);
gboolean tm_gclog_parse_wall_ms  (const char *s, const char *end, gint64 *ms);
const char *tm_gclog_find        (const char *s, const char *end, const char *needle);

void     tm_gclog_parser_init    (TmGclogParser *p, const char *path);
void     tm_gclog_parser_clear   (TmGclogParser *p);
void     tm_gclog_handle_line    (TmGclogParser *p, const char *line, const char *end);
void     tm_gclog_end_source     (TmGclogParser *p);
TmTrace *tm_gclog_parser_build   (TmGclogParser *p, GError **error);

/* The time stamp of a line, for putting rotated files in order. */
typedef struct {
  gboolean has_uptime;
  guint64  uptime_ns;
  gboolean has_wall;
  gint64   wall_ms;
} TmGclogTime;

gboolean tm_gclog_ujl_line_time    (const char *line, const char *end, TmGclogTime *t);
gboolean tm_gclog_legacy_line_time (const char *line, const char *end, TmGclogTime *t);

void     tm_gclog_ujl_line       (TmGclogParser *p, const char *line, const char *end);
gboolean tm_gclog_ujl_sniff_line (const char *line, const char *end);
void     tm_gclog_ujl_finish     (TmGclogParser *p);
void     tm_gclog_ujl_output_note (TmGclogParser *p);
void     tm_gclog_cycle_line     (TmGclogParser *p, gint64 id, const char *s, const char *end);
void     tm_gclog_legacy_line    (TmGclogParser *p, const char *line, const char *end);
void     tm_gclog_legacy_finish  (TmGclogParser *p);
gboolean tm_gclog_legacy_sniff_line (const char *line, const char *end);
gboolean tm_gclog_exit_summary_line (const char *line, const char *end);

G_END_DECLS
