/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC configurations that `tune` tries and the knowledge base stores: a
 * collector plus sizes relative to the program's measured live data, so
 * that one configuration fits programs of any size.  Also the normalized
 * run-time metrics ("features") that describe a program's memory
 * behaviour, and the k-nearest-neighbour lookup in a knowledge base.
 */
#pragma once

#include "tm-trace.h"
#include "tm-gc-stats.h"

G_BEGIN_DECLS

typedef struct {
  char    *collector;       /* "Serial", "Parallel", "G1", "ZGC", "Shenandoah"; NULL = the JVM's default */
  double   heap_factor;     /* -Xmx as a multiple of the live data; 0 = default */
  guint    new_ratio;       /* -XX:NewRatio; 0 = default */
  guint    max_tenuring;    /* -XX:MaxTenuringThreshold; 0 = default */
  guint    survivor_ratio;  /* -XX:SurvivorRatio; 0 = default */
} TmGcConfig;

void      tm_gc_config_clear      (TmGcConfig *config);
void      tm_gc_config_copy       (TmGcConfig *dest, const TmGcConfig *src);
gboolean  tm_gc_config_equal      (const TmGcConfig *a, const TmGcConfig *b);
/* "collector=G1 heap=3x new-ratio=2"; "default" for the JVM's default. */
char     *tm_gc_config_to_string  (const TmGcConfig *config);
gboolean  tm_gc_config_from_string (const char *s, TmGcConfig *config, GError **error);
/* JVM flags for a program whose live data is live_bytes (NULL-terminated). */
GStrv     tm_gc_config_flags      (const TmGcConfig *config, guint64 live_bytes);
/* The flags as one line ("" for the default). */
char     *tm_gc_config_flags_line (const TmGcConfig *config, guint64 live_bytes);

/* Normalized run-time metrics of one run (see docs/tune.md). */
#define TM_GC_N_FEATURES 6
typedef struct {
  double v[TM_GC_N_FEATURES];
} TmGcFeatures;

extern const char *const tm_gc_feature_names[TM_GC_N_FEATURES];

void      tm_gc_features_compute  (const TmTrace *trace, TmGcFeatures *features);

/* ---- knowledge base ---------------------------------------------------- */

typedef enum {
  TM_GOAL_THROUGHPUT = 0,
  TM_GOAL_LATENCY,
  TM_GOAL_FOOTPRINT,
  TM_N_GOALS
} TmGoal;

const char *tm_goal_to_string     (TmGoal goal);
gboolean    tm_goal_from_string   (const char *s, TmGoal *goal);

typedef struct {
  char        *name;
  char        *description;
  TmGcFeatures features;
  TmGcConfig   best[TM_N_GOALS];
  gboolean     has_best[TM_N_GOALS];
} TmKbEntry;

typedef struct {
  GPtrArray *entries;       /* TmKbEntry* */
} TmKb;

/* The knowledge base to use: `given` (--kb), $TIDEMARK_KB, the installed
 * one, the source tree's (uninstalled builds); NULL if there is none. */
char       *tm_kb_find            (const char *given);
TmKb       *tm_kb_new             (void);
void        tm_kb_free            (TmKb *kb);
/* GKeyFile text: one group per workload (docs/tune.md). */
TmKb       *tm_kb_load            (const char *path, GError **error);
gboolean    tm_kb_save            (const TmKb *kb, const char *path, GError **error);
/* Adds or replaces the entry of that name; takes ownership. */
void        tm_kb_put             (TmKb *kb, TmKbEntry *entry);
void        tm_kb_entry_free      (TmKbEntry *entry);

typedef struct {
  const TmKbEntry *entry;
  double           distance;
} TmKbNeighbour;

/* A neighbour farther than this (in standard deviations of the knowledge
 * base's features) does not resemble the query: no suggestion from it. */
#define TM_KB_CLOSE_DISTANCE 3.0

/* The k nearest entries to features (each feature scaled by its spread
 * over the knowledge base), nearest first; ties by name.  Returns how
 * many were written to out (at most k). */
guint       tm_kb_nearest         (const TmKb *kb, const TmGcFeatures *features, guint k, TmKbNeighbour *out);
/* The configuration the k nearest entries agree on for a goal: the one
 * most of them name, ties to the nearest.  FALSE if none has one. */
gboolean    tm_kb_suggest         (const TmKb *kb, const TmGcFeatures *features, guint k, TmGoal goal,
                                   TmGcConfig *config);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmKb, tm_kb_free)

G_END_DECLS
