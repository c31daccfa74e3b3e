/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Streaming HPROF parser (format as written by HotSpot's heapDumper.cpp:
 * a header "JAVA PROFILE 1.0.x\0", u4 identifier size, u8 time stamp in
 * ms; then records tag u1 | time u4 | length u4 | body, big-endian).
 * Heap contents come in HEAP DUMP (1.0.1) or HEAP DUMP SEGMENT (1.0.2)
 * records of sub-records without lengths, so a sub-record this parser
 * does not know ends its segment (reading goes on with the next record).
 *
 * Objects are numbered in dump order; references are collected as
 * (source index, target address) and resolved once every object is known,
 * because dumps refer forward freely.  Every count and length from the
 * file is checked against its record before it is used.
 *
 * An import parses on one thread and applies what it finds (objects,
 * references, roots, notes) on another, in dump order, through
 * fixed-width events (EV_*, tm-hprof-stream.c); the graph read applies
 * at once.  Both run the same steps in the same order.
 */
#include "tm-config.h"
#include <glib/gi18n-lib.h>

#include <string.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "tm-hprof-private.h"
#include "tm-trace.h"
#include "tm-error.h"

#define BUF_SIZE            (256u << 10)
#define MAP_WINDOW          (1u << 20)     /* mapped pages kept behind the parser */
#define MAX_UTF8            (1u << 20)     /* longer names are skipped */
#define MAX_INSTANCE_BYTES  (1u << 20)     /* 65535 fields of 8 bytes fit */
#define MAX_CHAIN           256            /* superclass chain depth */
#define PROGRESS_STEP       (4u << 20)
#define READ_SHARE          0.9            /* of the progress; resolving the rest */
#define RESOLVE_STEP        (1u << 14)     /* references between progress and cancel checks */
#define BATCH               16384u         /* objects handed to the sink at once */
#define MAX_EDGES           (G_MAXUINT32 - 1u) /* offsets are 32-bit */

enum {
  TAG_UTF8 = 0x01, TAG_LOAD_CLASS = 0x02, TAG_HEAP_DUMP = 0x0C,
  TAG_HEAP_DUMP_SEGMENT = 0x1C, TAG_HEAP_DUMP_END = 0x2C,
};

enum {
  SUB_ROOT_UNKNOWN = 0xFF, SUB_ROOT_JNI_GLOBAL = 0x01, SUB_ROOT_JNI_LOCAL = 0x02,
  SUB_ROOT_JAVA_FRAME = 0x03, SUB_ROOT_NATIVE_STACK = 0x04, SUB_ROOT_STICKY_CLASS = 0x05,
  SUB_ROOT_THREAD_BLOCK = 0x06, SUB_ROOT_MONITOR_USED = 0x07, SUB_ROOT_THREAD_OBJECT = 0x08,
  SUB_CLASS_DUMP = 0x20, SUB_INSTANCE_DUMP = 0x21, SUB_OBJ_ARRAY_DUMP = 0x22, SUB_PRIM_ARRAY_DUMP = 0x23,
  /* Android's extensions */
  SUB_ROOT_INTERNED_STRING = 0x89, SUB_ROOT_FINALIZING = 0x8A, SUB_ROOT_DEBUGGER = 0x8B,
  SUB_ROOT_REFERENCE_CLEANUP = 0x8C, SUB_ROOT_VM_INTERNAL = 0x8D, SUB_ROOT_JNI_MONITOR = 0x8E,
  SUB_UNREACHABLE = 0x90, SUB_PRIM_ARRAY_NODATA = 0xC3, SUB_HEAP_DUMP_INFO = 0xFE,
};

/* Events of the stream, in the low byte of their first word; bits 8..31
 * count the targets (64-bit addresses) that follow an event's fixed
 * words.  An event never crosses a chunk: targets go on in EV_REFS or
 * EV_STATICS events. */
enum {
  EV_INST = 1,      /* type << 32 | addr | size | reserve << 32 | at | targets */
  EV_ARRAY,         /* type << 32 | addr | size | at  (an object array or a primitive one) */
  EV_REFS,          /* reserve << 32 | targets of the last object */
  EV_ROOT,          /* kind << 8 | thread << 32 | addr */
  EV_CLASS,         /* cid | super | loader | size | at, then EV_STATICS, EV_CLASS_END */
  EV_STATICS,       /* targets of the class object's static fields */
  EV_CLASS_END,
  EV_NOTE,          /* offset | text (taken) */
  EV_TYPE,          /* flags << 32 | type id | name (taken) */
  EV_CHECK,         /* answer: is the model over its budget? */
  EV_FLUSH,         /* a check that cannot fail: the batch for the model goes */
};

enum { BT_OBJECT = 2, BT_BOOLEAN = 4, BT_CHAR, BT_FLOAT, BT_DOUBLE, BT_BYTE, BT_SHORT, BT_INT, BT_LONG };

/* ---- classes ---------------------------------------------------------- */

typedef struct {
  guint64  id;
  guint64  super_id;
  guint32  type_id;        /* builder type, 0 until first used */
  gboolean dumped;         /* CLASS DUMP seen */
  guint16  n_fields;       /* own instance fields */
  guint8  *field_type;
  guint64 *field_name;     /* string ids */
  /* layout of an instance's field bytes, own fields first, then the
   * superclass's (HotSpot's order); computed on first use */
  gint     layout;         /* 0 not yet, 1 ok, -1 incomplete chain */
  guint32  data_bytes;
  guint32  n_refs;
  guint32 *ref_off;
  guint32 *ref_label;
  guint64  shallow;
} HprofClass;

static void
hprof_class_free (gpointer data)
{
  HprofClass *c = data;

  g_free (c->field_type);
  g_free (c->field_name);
  g_free (c->ref_off);
  g_free (c->ref_label);
  g_free (c);
}

struct _HprofParser {
  const char        *path;
  TmHeaptrackSource *src;
  guint8            *buf;
  gsize              cap, pos, len;
  guint64            base;           /* offset of buf[0] in the (decompressed) stream */
  gboolean           eof;
  /* a plain dump mapped whole: buf is the file (no copies out of the
   * page cache); pages behind the parser are let go as it moves on */
  GMappedFile       *mapped;
  gsize              released;       /* bytes of buf no longer mapped in */
  GError            *io_error;

  guint              id_size;
  guint              ref_size, obj_header, array_header;

  GHashTable        *strings;        /* guint64* id -> char* */
  GHashTable        *class_names;    /* class id -> name string id (guint64* both) */
  GHashTable        *classes;        /* guint64* id -> HprofClass* */
  HprofClass        *class_cache[256];
  GHashTable        *label_index;    /* char* -> label + 1 */
  GHashTable        *threads_seen;
  guint32            next_type;
  guint32            prim_defined;   /* bit per basic type */

  HprofAddrIndex     map;
  TmVecU32           e_off;          /* per object: its first reference */
  /* reference targets: in e_a32 as (address - e_base) >> e_shift while
   * every one fits (HotSpot's heaps below 32 GiB: half the bytes), else
   * all of them in e_addr */
  TmVecU32           e_a32;
  TmVecU64           e_addr;
  gboolean           e_wide;
  gboolean           e_based;
  guint64            e_base;
  guint              e_shift;
  TmVecU32           e_label;
  TmVecU64           r_addr;
  guint64            edges_dropped;  /* past MAX_EDGES */

  /* objects not yet handed to the sink */
  gboolean           batches;        /* the sink takes objects */
  guint32           *bt_type;        /* BATCH each, handed over full */
  guint64           *bt_size;
  guint              bt_n;

  /* While a dump is read for the model, what changes the objects,
   * references, roots and notes goes as events (EV_*) to a thread of
   * its own that applies them in dump order (apply_events) while this
   * one parses on; everything else stays here.  NULL: applied at once. */
  HprofStream       *stream;
  HprofChunk        *chunk;
  guint64           *sw, *s_end;     /* writing chunk->w */
  guint64           *s_hdr;          /* the open event whose targets follow */
  guint              s_hdr_len;
  TmVecU64           statics;        /* a class dump's static targets */
  guint64            s_words;        /* in chunks sent */
  /* the budget as the last answer left it: a check that cannot fail
   * since then (budget_bound()) needs no answer */
  gboolean           budget_known;
  guint64            budget_used, budget_room;
  guint64            s_words_checked; /* words written before that answer */
  guint64            s_names;        /* type name bytes sent since */
  /* the applying side */
  gboolean           last_added;     /* the last object was added: its targets count */
  gboolean           class_have;     /* the class object being applied is added */
  gsize              class_edges0, class_root_addrs0;
  guint              class_roots0;
  guint64            class_words[5];  /* cid, super, loader, size, at */

  const HprofSink   *sink;
  gpointer           user;
  gboolean           want_labels;
  TmProgressFunc     progress;
  gpointer           progress_data;
  GCancellable      *cancellable;
  guint64            next_check;
  HprofResult       *r;
};

/* ---- byte source ------------------------------------------------------- */

static inline guint64
off (const HprofParser *p)
{
  return p->base + p->pos;
}

/* Makes n bytes readable at buf + pos.  FALSE at the end of the data. */
static gboolean
refill (HprofParser *p, gsize n)
{
  if (p->mapped != NULL)
    return p->len - p->pos >= n;
  if (n > p->cap)
    {
      gsize cap = MAX (n, p->cap * 2);
      guint8 *nb = g_malloc (cap);
      memcpy (nb, p->buf + p->pos, p->len - p->pos);
      g_free (p->buf);
      p->buf = nb;
      p->cap = cap;
    }
  else
    memmove (p->buf, p->buf + p->pos, p->len - p->pos);
  p->base += p->pos;
  p->len -= p->pos;
  p->pos = 0;
  while (p->len < n && !p->eof)
    {
      gssize got = tm_heaptrack_source_read (p->src, p->buf + p->len, p->cap - p->len,
                                             p->io_error ? NULL : &p->io_error);
      if (got <= 0)
        p->eof = TRUE;
      else
        p->len += (gsize) got;
    }
  return p->len >= n;
}

static inline gboolean
need (HprofParser *p, gsize n)
{
  return G_LIKELY (p->len - p->pos >= n) || refill (p, n);
}

static gboolean
skip (HprofParser *p, guint64 n)
{
  while (n > 0)
    {
      gsize k;
      if (p->pos == p->len && !refill (p, 1))
        return FALSE;
      k = (gsize) MIN (n, (guint64) (p->len - p->pos));
      p->pos += k;
      n -= k;
    }
  return TRUE;
}

static inline guint32
rd_u4 (const guint8 *b)
{
  guint32 v;

  memcpy (&v, b, sizeof v);
  return GUINT32_FROM_BE (v);
}

/* An identifier of I bytes: the hot sub-records pass I as a constant, so
 * that this is one load and a byte swap. */
static inline guint64
rd_idn (const guint8 *b, guint I)
{
  guint64 v;

  if (I == 4)
    return rd_u4 (b);
  memcpy (&v, b, sizeof v);
  return GUINT64_FROM_BE (v);
}

static inline guint64
rd_id (const HprofParser *p, const guint8 *b)
{
  return rd_idn (b, p->id_size);
}

static inline guint8
u1 (HprofParser *p)
{
  return p->buf[p->pos++];
}

static inline guint16
u2 (HprofParser *p)
{
  guint16 v = (guint16) ((p->buf[p->pos] << 8) | p->buf[p->pos + 1]);
  p->pos += 2;
  return v;
}

static inline guint32
u4 (HprofParser *p)
{
  guint32 v = rd_u4 (p->buf + p->pos);
  p->pos += 4;
  return v;
}

static inline guint64
id (HprofParser *p)
{
  guint64 v = rd_id (p, p->buf + p->pos);
  p->pos += p->id_size;
  return v;
}

static inline guint64
idn (HprofParser *p, guint I)
{
  guint64 v = rd_idn (p->buf + p->pos, I);
  p->pos += I;
  return v;
}

/* bytes of a value of basic type t; 0 if t is not a basic type */
static inline guint
type_size (const HprofParser *p, guint t)
{
  switch (t)
    {
    case BT_OBJECT: return p->id_size;
    case BT_BOOLEAN: case BT_BYTE: return 1;
    case BT_CHAR: case BT_SHORT: return 2;
    case BT_FLOAT: case BT_INT: return 4;
    case BT_DOUBLE: case BT_LONG: return 8;
    default: return 0;
    }
}

static void
note (HprofParser *p, guint64 offset, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void s_event3 (HprofParser *p, guint64 w0, guint64 w1, guint64 w2);

static void
note_take (HprofParser *p, guint64 offset, char *text)
{
  g_ptr_array_add (p->r->notes, text);
  g_ptr_array_add (p->r->note_offsets, (gpointer) (guintptr) offset);
}

/* A note of the parser: in order with those of the applying side. */
static void
note (HprofParser *p, guint64 offset, const char *format, ...)
{
  va_list args;
  char *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (p->stream != NULL)
    s_event3 (p, EV_NOTE, offset, (guint64) (guintptr) text);
  else
    note_take (p, offset, text);
}

static void
stop (HprofParser *p, guint64 offset, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
stop (HprofParser *p, guint64 offset, const char *format, ...)
{
  va_list args;

  if (p->r->stopped)
    return;
  va_start (args, format);
  p->r->stopped = TRUE;
  p->r->stop_offset = offset;
  if (p->io_error != NULL)
    p->r->stop_reason = g_strdup (p->io_error->message);
  else
    p->r->stop_reason = g_strdup_vprintf (format, args);
  va_end (args);
}

/* ---- names -------------------------------------------------------------- */

static const char *
string_for (HprofParser *p, guint64 sid)
{
  return g_hash_table_lookup (p->strings, &sid);
}

static guint32
label_for (HprofParser *p, const char *text)
{
  gpointer v;

  if (!p->want_labels || text == NULL)
    return TM_HPROF_LABEL_NONE;
  v = g_hash_table_lookup (p->label_index, text);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  g_ptr_array_add (p->r->labels, g_strdup (text));
  g_hash_table_insert (p->label_index, g_ptr_array_index (p->r->labels, p->r->labels->len - 1),
                       GUINT_TO_POINTER (p->r->labels->len));
  return p->r->labels->len - 1;
}

static const char *const prim_names[] = {
  [BT_BOOLEAN] = "boolean", [BT_CHAR] = "char", [BT_FLOAT] = "float", [BT_DOUBLE] = "double",
  [BT_BYTE] = "byte", [BT_SHORT] = "short", [BT_INT] = "int", [BT_LONG] = "long",
};

/* "java/util/HashMap$Node" -> "java.util.HashMap$Node",
 * "[[Ljava/lang/String;" -> "java.lang.String[][]", "[I" -> "int[]". */
static char *
java_name (const char *internal)
{
  GString *s = g_string_new (NULL);
  const char *n = internal;
  guint dims = 0;

  while (*n == '[')
    {
      dims++;
      n++;
    }
  if (dims > 0 && *n == 'L')
    {
      const char *e = strchr (n, ';');
      g_string_append_len (s, n + 1, e ? e - n - 1 : (gssize) strlen (n + 1));
    }
  else if (dims > 0 && n[0] != '\0' && n[1] == '\0')
    {
      static const char codes[] = "ZCFDBSIJ";
      const char *c = strchr (codes, n[0]);
      g_string_append (s, c ? prim_names[BT_BOOLEAN + (c - codes)] : n);
    }
  else
    g_string_append (s, n);
  for (gsize i = 0; i < s->len; i++)
    if (s->str[i] == '/')
      s->str[i] = '.';
  for (guint d = 0; d < dims; d++)
    g_string_append (s, "[]");
  return g_string_free (s, FALSE);
}

static char *
class_name (HprofParser *p, guint64 class_id)
{
  guint64 *sid = g_hash_table_lookup (p->class_names, &class_id);
  const char *s = sid ? string_for (p, *sid) : NULL;

  if (s == NULL)
    return g_strdup_printf ("(class 0x%" G_GINT64_MODIFIER "x)", class_id);
  return java_name (s);
}

static HprofClass *
class_get_slow (HprofParser *p, guint64 class_id, gboolean create)
{
  HprofClass **slot = &p->class_cache[(class_id >> 3) & 255];
  HprofClass *c = g_hash_table_lookup (p->classes, &class_id);

  if (c == NULL && create)
    {
      c = g_new0 (HprofClass, 1);
      c->id = class_id;
      g_hash_table_insert (p->classes, &c->id, c);
    }
  if (c != NULL)
    *slot = c;
  return c;
}

static inline HprofClass *
class_get (HprofParser *p, guint64 class_id, gboolean create)
{
  HprofClass *c = p->class_cache[(class_id >> 3) & 255];

  if (G_LIKELY (c != NULL && c->id == class_id))
    return c;
  return class_get_slow (p, class_id, create);
}

static void class_type_define (HprofParser *p, HprofClass *c, guint32 flags);

/* The sink learns a type (name taken) before the objects of it. */
static void
define_type (HprofParser *p, guint32 type_id, char *name, guint32 flags)
{
  if (p->stream != NULL)
    {
      p->s_names += strlen (name) + 256;
      s_event3 (p, EV_TYPE | ((guint64) flags << 32), type_id, (guint64) (guintptr) name);
      return;
    }
  p->sink->type (p->user, type_id, name, flags);
  g_free (name);
}

static inline guint32
class_type (HprofParser *p, HprofClass *c, guint32 flags)
{
  if (G_UNLIKELY (c->type_id == 0))
    class_type_define (p, c, flags);
  return c->type_id;
}

static void
class_type_define (HprofParser *p, HprofClass *c, guint32 flags)
{
  c->type_id = p->next_type++;
  if (p->sink && p->sink->type)
    {
      char *name = class_name (p, c->id);
      if (g_str_has_suffix (name, "[]") && flags == 0)
        flags = TM_TYPE_FLAG_REF_ARRAY;
      define_type (p, c->type_id, name, flags);
    }
}

static guint32
prim_array_type (HprofParser *p, guint t)
{
  if (!(p->prim_defined & (1u << t)))
    {
      p->prim_defined |= 1u << t;
      if (p->sink && p->sink->type)
        {
          define_type (p, t, g_strconcat (prim_names[t], "[]", NULL), TM_TYPE_FLAG_PRIM_ARRAY);
        }
    }
  return t;
}

/* The instance layout of a class: where its references are. */
static gboolean
class_layout_make (HprofParser *p, HprofClass *c)
{
  HprofClass *chain[MAX_CHAIN];
  guint n_chain = 0;
  guint32 bytes = 0, refs = 0, o = 0, r = 0;

  if (c->layout != 0)
    return c->layout > 0;
  c->layout = -1;
  for (HprofClass *k = c; k != NULL; k = k->super_id ? class_get (p, k->super_id, FALSE) : NULL)
    {
      if (!k->dumped || n_chain == MAX_CHAIN)
        return FALSE;
      for (guint i = 0; i < n_chain; i++)
        if (chain[i] == k)
          return FALSE;     /* a cycle of superclasses */
      chain[n_chain++] = k;
      for (guint f = 0; f < k->n_fields; f++)
        {
          bytes += type_size (p, k->field_type[f]);
          refs += k->field_type[f] == BT_OBJECT;
        }
      if (k->super_id == 0)
        break;
    }
  c->data_bytes = bytes;
  c->n_refs = refs;
  c->ref_off = g_new (guint32, MAX (refs, 1));
  c->ref_label = g_new0 (guint32, MAX (refs, 1));
  for (guint i = 0; i < n_chain; i++)
    for (guint f = 0; f < chain[i]->n_fields; f++)
      {
        if (chain[i]->field_type[f] == BT_OBJECT)
          {
            c->ref_off[r] = o;
            c->ref_label[r] = label_for (p, string_for (p, chain[i]->field_name[f]));
            r++;
          }
        o += type_size (p, chain[i]->field_type[f]);
      }
  c->shallow = (p->obj_header + bytes - (guint64) refs * (p->id_size - p->ref_size) + 7) & ~(guint64) 7;
  c->layout = 1;
  return TRUE;
}

static inline gboolean
class_layout (HprofParser *p, HprofClass *c)
{
  return G_LIKELY (c->layout > 0) || class_layout_make (p, c);
}

/* ---- objects, references, roots ---------------------------------------- */

static void
flush_objects (HprofParser *p)
{
  if (p->bt_n > 0)
    p->sink->objects (p->user, p->r->n_objects - p->bt_n, p->bt_n, g_steal_pointer (&p->bt_type),
                      g_steal_pointer (&p->bt_size));
  p->bt_n = 0;
}

static G_NO_INLINE void
note_refused (HprofParser *p, guint64 addr, guint64 at)
{
  note_take (p, at, g_strdup_printf ("object 0x%" G_GINT64_MODIFIER "x at byte offset %" G_GUINT64_FORMAT " is %s; skipped",
                                     addr, at, addr == 0 ? "the null id" : "listed twice (or too many objects)"));
}

/* A batch for the sink to fill (none while nothing takes objects). */
static G_NO_INLINE void
batch_start (HprofParser *p)
{
  p->bt_type = g_new (guint32, BATCH);
  p->bt_size = g_new (guint64, BATCH);
}

/* The next object; its references start at e_addr[edge_start] (a class
 * dump lists them before the object can be added). */
G_ALWAYS_INLINE static inline gboolean
add_object (HprofParser *p, guint64 addr, guint32 type_id, guint64 size, guint64 at, gsize edge_start)
{
  guint32 index = p->r->n_objects;

  if (G_UNLIKELY (addr == 0 || index >= G_MAXUINT32 - 2) || G_UNLIKELY (!hprof_addr_add (&p->map, addr)))
    {
      note_refused (p, addr, at);
      return FALSE;
    }
  tm_vec_u32_reserve (&p->e_off, 1);
  p->e_off.data[p->e_off.len++] = (guint32) edge_start;
  p->r->n_objects++;
  p->r->total_bytes += size;
  if (p->batches)
    {
      if (G_UNLIKELY (p->bt_type == NULL))
        batch_start (p);
      p->bt_type[p->bt_n] = type_id;
      p->bt_size[p->bt_n] = size;
      if (G_UNLIKELY (++p->bt_n == BATCH))
        flush_objects (p);
    }
  return TRUE;
}

static inline gsize
n_edges (const HprofParser *p)
{
  return p->e_wide ? p->e_addr.len : p->e_a32.len;
}

/* A target that does not fit 4 bytes: every target to 8 bytes. */
static void
widen_edges (HprofParser *p)
{
  gsize n = p->e_a32.len;

  tm_vec_u64_reserve (&p->e_addr, n + 1);
  for (gsize e = 0; e < n; e++)
    p->e_addr.data[e] = p->e_base + ((guint64) p->e_a32.data[e] << p->e_shift);
  p->e_addr.len = n;
  tm_vec_u32_clear (&p->e_a32);
  p->e_wide = TRUE;
}

/* A reference of the object being read (the last added, or for a class
 * dump the one about to be). */
static G_NO_INLINE void
add_ref (HprofParser *p, guint64 target, guint32 label)
{
  if (G_UNLIKELY (n_edges (p) >= MAX_EDGES))
    {
      p->edges_dropped++;
      return;
    }
  if (G_LIKELY (!p->e_wide))
    {
      guint64 d;
      if (G_UNLIKELY (!p->e_based))
        {
          /* 8-byte ids: a 32 GiB window around the first target */
          p->e_based = TRUE;
          if (p->id_size == 8)
            p->e_base = (target & ~(guint64) 7) > (G_GUINT64_CONSTANT (16) << 30)
                        ? (target & ~(guint64) 7) - (G_GUINT64_CONSTANT (16) << 30) : 0;
        }
      d = target - p->e_base;
      if (G_LIKELY (target >= p->e_base && (d & ((G_GUINT64_CONSTANT (1) << p->e_shift) - 1)) == 0
                    && (d >> p->e_shift) <= G_MAXUINT32))
        tm_vec_u32_push (&p->e_a32, (guint32) (d >> p->e_shift));
      else
        {
          widen_edges (p);
          tm_vec_u64_push (&p->e_addr, target);
        }
    }
  else
    tm_vec_u64_push (&p->e_addr, target);
  if (p->want_labels)
    tm_vec_u32_push (&p->e_label, label);
}

/* add_ref()'s usual case inline: a narrow target with room in e_a32
 * (reserve_refs() per object).  I, the identifier size, is a constant on
 * the hot paths. */
static inline void
add_ref_fast (HprofParser *p, guint64 target, guint32 label, const guint I)
{
  const guint shift = I == 8 ? 3 : 0;
  guint64 d = target - p->e_base;

  if (G_LIKELY (!p->e_wide && p->e_based && p->e_a32.len < p->e_a32.cap && p->e_a32.len < MAX_EDGES
                && target >= p->e_base && (d & ((1u << shift) - 1)) == 0 && (d >> shift) <= G_MAXUINT32))
    {
      p->e_a32.data[p->e_a32.len++] = (guint32) (d >> shift);
      if (p->want_labels)
        tm_vec_u32_push (&p->e_label, label);
      return;
    }
  add_ref (p, target, label);
}

/* Room for n more narrow targets (while they are narrow). */
static inline void
reserve_refs (HprofParser *p, gsize n)
{
  if (G_LIKELY (!p->e_wide))
    tm_vec_u32_reserve (&p->e_a32, n);
}

static void
add_root (HprofParser *p, guint64 addr, guint kind, guint32 thread, guint32 label)
{
  HprofRoot root = { 0, (guint8) kind, thread, label };

  if (addr == 0)
    return;
  if (thread != 0 && g_hash_table_add (p->threads_seen, GUINT_TO_POINTER (thread))
      && p->sink && p->sink->thread)
    p->sink->thread (p->user, thread);
  tm_vec_u64_push (&p->r_addr, addr);
  g_array_append_val (p->r->roots, root);
}

/* ---- events to the applying thread ------------------------------------ */

static G_NO_INLINE void
s_next (HprofParser *p)
{
  p->chunk->len = (gsize) (p->sw - p->chunk->w);
  p->s_words += p->chunk->len;
  p->chunk = hprof_stream_send (p->stream, p->chunk);
  p->sw = p->chunk->w;
  p->s_end = p->sw + HPROF_CHUNK_WORDS;
}

/* room for n words (n <= HPROF_CHUNK_WORDS) */
G_ALWAYS_INLINE static inline void
s_room (HprofParser *p, gsize n)
{
  if (G_UNLIKELY ((gsize) (p->s_end - p->sw) < n))
    s_next (p);
}

static void
s_event3 (HprofParser *p, guint64 w0, guint64 w1, guint64 w2)
{
  s_room (p, 3);
  p->sw[0] = w0;
  p->sw[1] = w1;
  p->sw[2] = w2;
  p->sw += 3;
}

/* The event of `len` words just written takes targets (s_target) until
 * s_close(). */
G_ALWAYS_INLINE static inline void
s_open (HprofParser *p, guint len)
{
  p->s_hdr = p->sw - len;
  p->s_hdr_len = len;
}

G_ALWAYS_INLINE static inline void
s_close (HprofParser *p)
{
  *p->s_hdr |= (guint64) (p->sw - p->s_hdr - p->s_hdr_len) << 8;
}

/* a full chunk amid targets: they go on in an event of `kind` */
static G_NO_INLINE void
s_more (HprofParser *p, guint64 kind)
{
  s_close (p);
  s_next (p);
  *p->sw++ = kind;
  s_open (p, 1);
}

G_ALWAYS_INLINE static inline void
s_target (HprofParser *p, guint64 target, guint64 kind)
{
  if (G_UNLIKELY (p->sw == p->s_end))
    s_more (p, kind);
  *p->sw++ = target;
}

/* An object: an instance's targets follow (s_target, s_close); an
 * array's in EV_REFS events. */
G_ALWAYS_INLINE static inline void
s_object (HprofParser *p, guint64 head, guint64 addr, guint64 size, guint64 at, guint32 targets)
{
  s_room (p, 4 + MIN (targets, HPROF_CHUNK_WORDS - 4));
  p->sw[0] = head;
  p->sw[1] = addr;
  p->sw[2] = size;
  p->sw[3] = at;
  p->sw += 4;
  s_open (p, 4);
}

/* ---- heap dump sub-records ---------------------------------------------- */

typedef enum { SEG_OK, SEG_SKIP, SEG_STOP } SegResult;

/* A sub-record longer than what is left of its record: damage that ends
 * the record (the next one starts where the record's length says). */
static SegResult
past_end_of_record (HprofParser *p, guint64 at, const char *what)
{
  note (p, at, "%s at byte offset %" G_GUINT64_FORMAT " runs past the end of its heap dump record; the rest is skipped",
        what, at);
  return SEG_SKIP;
}

#define NEED(n)                                                          \
  G_STMT_START {                                                         \
    guint64 need_n_ = (n);                                               \
    if (need_n_ > end - off (p))                                         \
      goto past_end;                                                     \
    if (!need (p, (gsize) need_n_))                                      \
      goto cut;                                                          \
  } G_STMT_END

/* The class object comes last, once its size is known: until then its
 * references and roots are pending, and dropped if it never comes (a
 * damaged or cut dump), so that no edge starts at a missing object. */
static void
drop_pending (HprofParser *p, gsize edges, gsize root_addrs, guint roots)
{
  p->e_addr.len = MIN (p->e_addr.len, edges);
  p->e_a32.len = MIN (p->e_a32.len, edges);
  if (p->want_labels)
    p->e_label.len = MIN (p->e_label.len, edges);
  p->r_addr.len = MIN (p->r_addr.len, root_addrs);
  if (p->r->roots->len > roots)
    g_array_set_size (p->r->roots, roots);
}

static SegResult
class_dump (HprofParser *p, guint64 end, guint64 at)
{
  const guint I = p->id_size;
  guint64 cid, super, loader, static_bytes = 0;
  guint16 n;
  HprofClass *c;
  guint32 dup;
  gboolean have_obj;
  g_autofree char *cname = NULL;
  /* streamed: the applying side holds the objects (and decides whether
   * the class object is new); nothing is sent before the dump is whole */
  const gboolean streamed = p->stream != NULL;
  const gsize edges0 = streamed ? 0 : n_edges (p), root_addrs0 = streamed ? 0 : p->r_addr.len;
  const guint roots0 = streamed ? 0 : p->r->roots->len;
  SegResult res;

  NEED (7 * I + 4 + 4 + 2);
  cid = id (p);
  (void) u4 (p);
  super = id (p);
  loader = id (p);
  p->pos += 4 * I;        /* signers, protection domain, reserved */
  (void) u4 (p);          /* instance size: recomputed from the fields */
  n = u2 (p);
  for (guint i = 0; i < n; i++)    /* constant pool */
    {
      guint t, s;
      NEED (3);
      p->pos += 2;
      t = u1 (p);
      if ((s = type_size (p, t)) == 0)
        goto bad_type;
      NEED (s);
      p->pos += s;
    }

  c = class_get (p, cid, TRUE);
  if (c->dumped)
    {
      note (p, at, "class 0x%" G_GINT64_MODIFIER "x dumped twice (byte offset %" G_GUINT64_FORMAT "); the second is skipped",
            cid, at);
      c = NULL;
    }
  else if (c->layout < 0)
    c->layout = 0;        /* its instances came first: try again for later ones */
  /* the class object is added once its size (the statics) is known */
  have_obj = c != NULL && cid != 0 && (streamed || !hprof_addr_find (&p->map, cid, &dup));
  p->statics.len = 0;
  if (p->want_labels && have_obj)
    cname = class_name (p, cid);

  NEED (2);
  n = u2 (p);
  for (guint i = 0; i < n; i++)    /* static fields */
    {
      guint64 name;
      guint t, s;
      NEED (I + 1);
      name = id (p);
      t = u1 (p);
      if ((s = type_size (p, t)) == 0)
        goto bad_type;
      NEED (s);
      static_bytes += t == BT_OBJECT ? p->ref_size : s;
      if (t == BT_OBJECT)
        {
          guint64 target = id (p);
          if (target != 0 && have_obj && streamed)
            tm_vec_u64_push (&p->statics, target);
          else if (target != 0 && have_obj)
            {
              const char *fname = string_for (p, name);
              guint32 label = TM_HPROF_LABEL_NONE, root_label = TM_HPROF_LABEL_NONE;
              if (p->want_labels)
                {
                  g_autofree char *full = g_strdup_printf ("%s.%s", cname, fname ? fname : "?");
                  label = label_for (p, fname ? fname : "?");
                  root_label = label_for (p, full);
                }
              add_ref (p, target, label);
              add_root (p, target, TM_ROOT_KIND_STATIC, 0, root_label);
            }
        }
      else
        p->pos += s;
    }

  NEED (2);
  n = u2 (p);
  NEED ((guint64) n * (I + 1));
  if (c != NULL)
    {
      c->dumped = TRUE;
      c->super_id = super;
      c->n_fields = n;
      c->field_type = g_new (guint8, MAX (n, 1));
      c->field_name = g_new (guint64, MAX (n, 1));
    }
  for (guint i = 0; i < n; i++)
    {
      guint64 name = id (p);
      guint t = u1 (p);
      if (type_size (p, t) == 0)
        {
          if (c != NULL)
            c->n_fields = (guint16) i;
          goto bad_type;
        }
      if (c != NULL)
        {
          c->field_type[i] = (guint8) t;
          c->field_name[i] = name;
        }
    }

  if (have_obj && streamed)
    {
      s_room (p, 7);
      p->sw[0] = EV_CLASS;
      p->sw[1] = cid;
      p->sw[2] = super;
      p->sw[3] = loader;
      p->sw[4] = (p->obj_header + static_bytes + 7) & ~(guint64) 7;
      p->sw[5] = at;
      p->sw[6] = EV_STATICS;
      p->sw += 7;
      s_open (p, 1);
      for (gsize i = 0; i < p->statics.len; i++)
        s_target (p, p->statics.data[i], EV_STATICS);
      s_close (p);
      s_room (p, 1);
      *p->sw++ = EV_CLASS_END;
    }
  else if (have_obj)
    {
      /* A loaded class is held by its loader, a link the dump does not
       * show: classes are roots, and keep their loader and superclass. */
      if (super != 0)
        add_ref (p, super, label_for (p, "<superclass>"));
      if (loader != 0)
        add_ref (p, loader, label_for (p, "<classloader>"));
      if (p->want_labels)
        {
          g_autofree char *l = g_strconcat ("class ", cname, NULL);
          add_root (p, cid, TM_ROOT_KIND_SYSTEM_CLASS, 0, label_for (p, l));
        }
      else
        add_root (p, cid, TM_ROOT_KIND_SYSTEM_CLASS, 0, TM_HPROF_LABEL_NONE);
      /* the mirror: a header and the static fields */
      if (!add_object (p, cid, TM_HPROF_TYPE_CLASS, (p->obj_header + static_bytes + 7) & ~(guint64) 7, at, edges0))
        drop_pending (p, edges0, root_addrs0, roots0);
    }
  return SEG_OK;

bad_type:
  note (p, at, "class dump at byte offset %" G_GUINT64_FORMAT " has a field of unknown type; the rest of its segment is skipped", at);
  res = SEG_SKIP;
  goto drop;
past_end:
  res = past_end_of_record (p, at, "class dump");
  goto drop;
cut:
  res = SEG_STOP;
drop:
  if (!streamed)
    drop_pending (p, edges0, root_addrs0, roots0);
  return res;
}

G_ALWAYS_INLINE static inline SegResult
instance_dump (HprofParser *p, guint64 end, guint64 at, const guint I, const gboolean S)
{
  guint64 addr, cid;
  guint32 nbytes;
  HprofClass *c;
  guint64 size;
  const guint8 *data;

  NEED (2 * I + 8);
  addr = idn (p, I);
  p->pos += 4;
  cid = idn (p, I);
  nbytes = u4 (p);
  if (G_UNLIKELY (nbytes > MAX_INSTANCE_BYTES))
    {
      note (p, at, "instance dump at byte offset %" G_GUINT64_FORMAT " claims %u bytes of fields; the rest of its record is skipped",
            at, nbytes);
      return SEG_SKIP;
    }
  NEED (nbytes);
  data = p->buf + p->pos;
  p->pos += nbytes;

  c = class_get (p, cid, TRUE);
  if (S)
    {
      /* sizes here are under 2^32: 1 MiB of fields at most */
      if (class_layout (p, c) && c->data_bytes == nbytes)
        {
          const guint64 head = EV_INST | ((guint64) class_type (p, c, 0) << 32);
          guint64 *sw = p->sw, *t;
          if (G_LIKELY ((gsize) (p->s_end - sw) >= 4 + (gsize) c->n_refs))
            {
              /* the usual case with the write pointer in a register */
              sw[0] = head;
              sw[1] = addr;
              sw[2] = c->shallow | ((guint64) c->n_refs << 32);
              sw[3] = at;
              t = sw + 4;
              for (guint32 r = 0; r < c->n_refs; r++)
                {
                  guint64 target = rd_idn (data + c->ref_off[r], I);
                  *t = target;
                  t += target != 0;
                }
              sw[0] |= (guint64) (t - sw - 4) << 8;
              p->sw = t;
              return SEG_OK;
            }
          s_object (p, head, addr, c->shallow | ((guint64) c->n_refs << 32), at, c->n_refs);
          for (guint32 r = 0; r < c->n_refs; r++)
            {
              guint64 target = rd_idn (data + c->ref_off[r], I);
              if (target != 0)
                s_target (p, target, EV_REFS);
            }
          s_close (p);
        }
      else
        {
          p->r->unknown_layout++;
          s_object (p, EV_INST | ((guint64) class_type (p, c, 0) << 32), addr, (p->obj_header + (guint64) nbytes + 7) & ~(guint64) 7, at, 0);
          s_close (p);
        }
      return SEG_OK;
    }
  if (class_layout (p, c) && c->data_bytes == nbytes)
    {
      size = c->shallow;
      if (!add_object (p, addr, class_type (p, c, 0), size, at, n_edges (p)))
        return SEG_OK;
      reserve_refs (p, c->n_refs);
      for (guint32 r = 0; r < c->n_refs; r++)
        {
          guint64 target = rd_idn (data + c->ref_off[r], I);
          if (target != 0)
            add_ref_fast (p, target, c->ref_label[r], I);
        }
    }
  else
    {
      /* no layout: its size from the bytes, its references unknown */
      p->r->unknown_layout++;
      size = (p->obj_header + (guint64) nbytes + 7) & ~(guint64) 7;
      add_object (p, addr, class_type (p, c, 0), size, at, n_edges (p));
    }
  return SEG_OK;

past_end:
  return past_end_of_record (p, at, "instance dump");
cut:
  return SEG_STOP;
}

G_ALWAYS_INLINE static inline SegResult
obj_array_dump (HprofParser *p, guint64 end, guint64 at, const guint I, const gboolean S)
{
  guint64 addr, cid;
  guint32 n;
  gboolean have;

  NEED (2 * I + 8);
  addr = idn (p, I);
  p->pos += 4;
  n = u4 (p);
  cid = idn (p, I);
  if ((guint64) n * I > end - off (p))
    goto past_end;
  if (S)
    {
      s_object (p, EV_ARRAY | ((guint64) class_type (p, class_get (p, cid, TRUE), TM_TYPE_FLAG_REF_ARRAY) << 32), addr,
                (p->array_header + (guint64) n * p->ref_size + 7) & ~(guint64) 7, at, 0);
      have = TRUE;
    }
  else
    have = add_object (p, addr, class_type (p, class_get (p, cid, TRUE), TM_TYPE_FLAG_REF_ARRAY),
                       (p->array_header + (guint64) n * p->ref_size + 7) & ~(guint64) 7, at, n_edges (p));
  for (guint32 i = 0; i < n;)
    {
      guint32 chunk = MIN (n - i, 65536u);
      const guint8 *b;
      NEED ((guint64) chunk * I);
      b = p->buf + p->pos;
      p->pos += (gsize) chunk * I;
      if (S)
        {
          /* the applying side reserves as the direct one does, per chunk */
          s_room (p, 2);
          *p->sw++ = EV_REFS | ((guint64) chunk << 32);
          s_open (p, 1);
          for (guint32 k = 0; k < chunk; k++, i++)
            {
              guint64 target = rd_idn (b + (gsize) k * I, I);
              if (target != 0)
                s_target (p, target, EV_REFS);
            }
          s_close (p);
          continue;
        }
      if (!have)
        {
          i += chunk;
          continue;
        }
      reserve_refs (p, chunk);
      for (guint32 k = 0; k < chunk; k++, i++)
        {
          guint64 target = rd_idn (b + (gsize) k * I, I);
          if (target != 0)
            add_ref_fast (p, target, p->want_labels ? (TM_HPROF_LABEL_INDEX | MIN (i, 0x7fffffffu)) : 0, I);
        }
    }
  return SEG_OK;

past_end:
  return past_end_of_record (p, at, "object array");
cut:
  return SEG_STOP;
}

G_ALWAYS_INLINE static inline SegResult
prim_array_dump (HprofParser *p, guint64 end, guint64 at, gboolean with_data, const guint I, const gboolean S)
{
  guint64 addr, bytes;
  guint32 n;
  guint t, s;

  NEED (I + 9);
  addr = idn (p, I);
  p->pos += 4;
  n = u4 (p);
  t = u1 (p);
  if (t == BT_OBJECT || (s = type_size (p, t)) == 0)
    {
      note (p, at, "primitive array at byte offset %" G_GUINT64_FORMAT " has unknown element type %u; the rest of its segment is skipped",
            at, t);
      return SEG_SKIP;
    }
  bytes = (guint64) n * s;
  if (with_data)
    {
      if (bytes > end - off (p))
        goto past_end;
      if (!skip (p, bytes))
        goto cut;
    }
  if (S)
    s_object (p, EV_ARRAY | ((guint64) prim_array_type (p, t) << 32), addr, (p->array_header + bytes + 7) & ~(guint64) 7, at, 0);
  else
    add_object (p, addr, prim_array_type (p, t), (p->array_header + bytes + 7) & ~(guint64) 7, at, n_edges (p));
  return SEG_OK;

past_end:
  return past_end_of_record (p, at, "primitive array");
cut:
  return SEG_STOP;
}

/* A root sub-record: the object id, then `extra` bytes; `thread_at` is
 * the offset of a u4 thread serial among them, or -1. */
static SegResult
root (HprofParser *p, guint64 end, guint kind, guint extra, int thread_at)
{
  guint64 addr;
  guint32 thread = 0;

  NEED (p->id_size + extra);
  addr = id (p);
  if (thread_at >= 0)
    thread = rd_u4 (p->buf + p->pos + thread_at);
  p->pos += extra;
  if (p->stream != NULL)
    {
      s_room (p, 2);
      p->sw[0] = EV_ROOT | ((guint64) (guint8) kind << 8) | ((guint64) thread << 32);
      p->sw[1] = addr;
      p->sw += 2;
    }
  else
    add_root (p, addr, kind, thread, TM_HPROF_LABEL_NONE);
  return SEG_OK;

past_end:
  return past_end_of_record (p, off (p) - 1, "root sub-record");
cut:
  return SEG_STOP;
}

/* The mapped pages the parser has left behind leave its resident set
 * (the page cache keeps them): a dump's bytes are read once. */
static void
release_behind (HprofParser *p)
{
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
  gsize page = (gsize) sysconf (_SC_PAGESIZE), upto;

  if (p->pos < p->released + 2 * MAP_WINDOW)
    return;
  upto = (p->pos - MAP_WINDOW) / page * page;
  madvise (p->buf + p->released, upto - p->released, MADV_DONTNEED);
  p->released = upto;
#endif
}

static void
check_progress (HprofParser *p)
{
  p->next_check = off (p) + PROGRESS_STEP;
  if (p->mapped != NULL)
    release_behind (p);
  if (p->progress != NULL)
    {
      guint64 size = p->mapped ? p->len : tm_heaptrack_source_size (p->src);
      guint64 at = p->mapped ? off (p) : tm_heaptrack_source_offset (p->src);
      p->progress (READ_SHARE * MIN (1.0, (double) at / (double) MAX (size, 1)), p->progress_data);
    }
}

/* Memory the parser holds until the dump is read: the address map, the
 * references waiting to be resolved, the roots. */
static guint64
parser_bytes (const HprofParser *p)
{
  return hprof_addr_bytes (&p->map)
         + (guint64) (p->e_off.cap + p->e_label.cap + p->e_a32.cap) * sizeof (guint32)
         + (guint64) (p->e_addr.cap + p->r_addr.cap) * sizeof (guint64);
}

/* The budget at a check: the applying side answers once it has applied
 * everything before it, so that reading stops where it would without
 * that thread. */
static gboolean
over_budget (HprofParser *p)
{
  guint64 used, room;

  if (p->stream != NULL)
    {
      guint64 words = p->s_words + (guint64) (p->sw - p->chunk->w) - p->s_words_checked;
      gboolean over;
      /* What the applying side holds can have grown since its last
       * answer by at most: every array doubled or a new column beside
       * (twice the bytes then), and 64 bytes per event word and the
       * type names, each twice (an array may double after them).  If
       * that fits what was left, the answer is no, without asking. */
      s_room (p, 1);
      if (p->budget_known && 2 * p->budget_used + 128 * words + 2 * p->s_names + (1u << 20) <= p->budget_room)
        {
          *p->sw++ = EV_FLUSH;
          return FALSE;
        }
      *p->sw++ = EV_CHECK;
      p->s_words_checked = p->s_words + (guint64) (p->sw - p->chunk->w);
      p->s_names = 0;
      s_next (p);
      over = hprof_stream_wait (p->stream);
      p->budget_known = TRUE;
      return over;
    }
  if (p->sink && p->sink->objects)
    flush_objects (p);
  return p->sink && p->sink->over_budget && p->sink->over_budget (p->user, parser_bytes (p), &used, &room);
}

/* Returns FALSE when reading must stop (cut short, cancelled, budget).
 * I is p->id_size and S whether events go to the applying thread,
 * constants in each of heap_dump()'s copies. */
G_ALWAYS_INLINE static inline gboolean
heap_dump_sized (HprofParser *p, guint64 length, gboolean to_end, guint64 rec_at, const guint I, const gboolean S)
{
  guint64 end = to_end ? G_MAXUINT64 : off (p) + length;

  while (off (p) < end)
    {
      guint64 at = off (p);
      SegResult res;
      guint tag;

      if (G_UNLIKELY (at >= p->next_check))
        {
          if (g_cancellable_is_cancelled (p->cancellable))
            return FALSE;
          check_progress (p);
          if (over_budget (p))
            {
              stop (p, at, "the model reached the memory limit");
              return FALSE;
            }
        }
      if (!need (p, 1))
        {
          if (to_end)
            return TRUE;
          stop (p, at, "the file ends inside the heap dump record at byte offset %" G_GUINT64_FORMAT, rec_at);
          return FALSE;
        }
      tag = u1 (p);
      switch (tag)
        {
        case SUB_ROOT_UNKNOWN:          res = root (p, end, TM_ROOT_KIND_OTHER7, 0, -1); break;
        case SUB_ROOT_JNI_GLOBAL:       res = root (p, end, TM_ROOT_KIND_JNI_GLOBAL, I, -1); break;
        case SUB_ROOT_JNI_LOCAL:        res = root (p, end, TM_ROOT_KIND_JNI_LOCAL, 8, 0); break;
        case SUB_ROOT_JAVA_FRAME:       res = root (p, end, TM_ROOT_KIND_THREAD_STACK, 8, 0); break;
        case SUB_ROOT_NATIVE_STACK:     res = root (p, end, TM_ROOT_KIND_THREAD_STACK, 4, 0); break;
        case SUB_ROOT_STICKY_CLASS:     res = root (p, end, TM_ROOT_KIND_SYSTEM_CLASS, 0, -1); break;
        case SUB_ROOT_THREAD_BLOCK:     res = root (p, end, TM_ROOT_KIND_THREAD_STACK, 4, 0); break;
        case SUB_ROOT_MONITOR_USED:     res = root (p, end, TM_ROOT_KIND_MONITOR, 0, -1); break;
        case SUB_ROOT_THREAD_OBJECT:    res = root (p, end, TM_ROOT_KIND_THREAD_STACK, 8, 0); break;
        case SUB_ROOT_INTERNED_STRING:
        case SUB_ROOT_FINALIZING:
        case SUB_ROOT_DEBUGGER:
        case SUB_ROOT_REFERENCE_CLEANUP:
        case SUB_ROOT_VM_INTERNAL:      res = root (p, end, TM_ROOT_KIND_OTHER7, 0, -1); break;
        case SUB_ROOT_JNI_MONITOR:      res = root (p, end, TM_ROOT_KIND_MONITOR, 8, 0); break;
        case SUB_UNREACHABLE:           res = root (p, end, G_MAXUINT, 0, -1); break;
        case SUB_HEAP_DUMP_INFO:
          res = end - off (p) >= 4 + I ? (skip (p, 4 + I) ? SEG_OK : SEG_STOP) : SEG_SKIP;
          break;
        case SUB_CLASS_DUMP:            res = class_dump (p, end, at); break;
        case SUB_INSTANCE_DUMP:         res = instance_dump (p, end, at, I, S); break;
        case SUB_OBJ_ARRAY_DUMP:        res = obj_array_dump (p, end, at, I, S); break;
        case SUB_PRIM_ARRAY_DUMP:       res = prim_array_dump (p, end, at, TRUE, I, S); break;
        case SUB_PRIM_ARRAY_NODATA:     res = prim_array_dump (p, end, at, FALSE, I, S); break;
        default:
          note (p, at, "unknown heap dump sub-record 0x%02x at byte offset %" G_GUINT64_FORMAT "; the rest of its record is skipped",
                tag, at);
          res = SEG_SKIP;
          break;
        }
      if (G_UNLIKELY (res == SEG_STOP))
        {
          stop (p, at, "the file ends inside the heap dump sub-record 0x%02x at byte offset %" G_GUINT64_FORMAT, tag, at);
          return FALSE;
        }
      if (G_UNLIKELY (res == SEG_SKIP))
        {
          if (to_end)
            {
              stop (p, at, "damaged heap dump sub-record 0x%02x at byte offset %" G_GUINT64_FORMAT, tag, at);
              return FALSE;
            }
          if (!skip (p, end - off (p)))
            {
              stop (p, off (p), "the file ends inside the heap dump record at byte offset %" G_GUINT64_FORMAT, rec_at);
              return FALSE;
            }
        }
    }
  return TRUE;
}

static gboolean
heap_dump (HprofParser *p, guint64 length, gboolean to_end, guint64 rec_at)
{
  if (p->stream != NULL)
    return p->id_size == 8 ? heap_dump_sized (p, length, to_end, rec_at, 8, TRUE)
                           : heap_dump_sized (p, length, to_end, rec_at, 4, TRUE);
  return p->id_size == 8 ? heap_dump_sized (p, length, to_end, rec_at, 8, FALSE)
                         : heap_dump_sized (p, length, to_end, rec_at, 4, FALSE);
}

#undef NEED

/* ---- the applying thread ------------------------------------------------ */

static void
apply_class_end (HprofParser *p)
{
  const guint64 cid = p->class_words[0], super = p->class_words[1], loader = p->class_words[2];

  if (!p->class_have)
    return;
  if (super != 0)
    add_ref (p, super, label_for (p, "<superclass>"));
  if (loader != 0)
    add_ref (p, loader, label_for (p, "<classloader>"));
  add_root (p, cid, TM_ROOT_KIND_SYSTEM_CLASS, 0, TM_HPROF_LABEL_NONE);
  if (!add_object (p, cid, TM_HPROF_TYPE_CLASS, p->class_words[3], p->class_words[4], p->class_edges0))
    drop_pending (p, p->class_edges0, p->class_root_addrs0, p->class_roots0);
}

/* Targets that all fit e_a32 as they are (add_ref_fast()'s test). */
G_ALWAYS_INLINE static inline gboolean
narrow_all (const guint64 *t, guint32 count, guint64 base, const guint shift)
{
  for (guint32 k = 0; k < count; k++)
    {
      guint64 d = t[k] - base;
      if (G_UNLIKELY (t[k] < base || (d & ((G_GUINT64_CONSTANT (1) << shift) - 1)) != 0 || (d >> shift) > G_MAXUINT32))
        return FALSE;
    }
  return TRUE;
}

/* The usual events, as add_object(), reserve_refs() and add_ref_fast()
 * would apply them when all of them take their inline paths, with the
 * state in locals (the stores to the arrays could alias the parser's
 * fields): from w[i] on while that holds; returns where it stopped, at
 * an event not applied. */
G_ALWAYS_INLINE static inline gsize
apply_run (HprofParser *p, const guint64 *w, gsize i, gsize n, const guint I)
{
  HprofAddrIndex *x = &p->map;
  const guint shift = I == 8 ? 3 : 0;

  if (x->cur_mode != HPROF_CUR_BITS || x->cur_count == 0 || p->e_wide || !p->e_based || p->bt_type == NULL
      || p->want_labels)
    return i;
  {
    guint64 *const bits = x->cur_bits.data;
    const gsize n_words = x->cur_bits.len;
    const guint64 base = x->cur_base, free_below = x->free_below, e_base = p->e_base;
    guint64 last = x->last, total = p->r->total_bytes;
    gsize cur_count = x->cur_count, off_len = p->e_off.len, a_len = p->e_a32.len;
    const gsize off_cap = p->e_off.cap, a_cap = p->e_a32.cap;
    guint32 *const off = p->e_off.data, *const a32 = p->e_a32.data, *const bt_type = p->bt_type;
    guint64 *const bt_size = p->bt_size;
    guint32 n_obj = p->r->n_objects, xn = x->n;
    guint bt_n = p->bt_n;
    gboolean added = p->last_added;

    while (i < n)
      {
        const guint64 h = w[i];
        const guint32 count = (guint32) ((h >> 8) & 0xffffff);
        const guint kind = h & 0xff;
        guint64 reserve;

        if (kind == EV_INST || kind == EV_ARRAY)
          {
            const guint64 addr = w[i + 1], d = addr - base, wd = d >> 9;
            const guint64 size = kind == EV_INST ? (guint32) w[i + 2] : w[i + 2];
            const guint32 nt = kind == EV_INST ? count : 0;
            reserve = kind == EV_INST ? w[i + 2] >> 32 : 0;
            /* addr > last: not the null id */
            if (!(addr > last && addr < free_below && (d & 7) == 0 && wd < n_words && n_obj < G_MAXUINT32 - 2
                  && off_len < off_cap && bt_n + 1 < BATCH && a_len + reserve <= a_cap && a_len + nt <= a_cap
                  && a_len + nt <= MAX_EDGES && narrow_all (w + i + 4, nt, e_base, shift)))
              break;
            bits[wd] |= G_GUINT64_CONSTANT (1) << ((d >> 3) & 63);
            cur_count++;
            last = addr;
            xn++;
            off[off_len++] = (guint32) a_len;
            n_obj++;
            total += size;
            bt_type[bt_n] = (guint32) (h >> 32);
            bt_size[bt_n++] = size;
            for (guint32 k = 0; k < nt; k++)
              a32[a_len++] = (guint32) ((w[i + 4 + k] - e_base) >> shift);
            added = TRUE;
            i += 4 + nt;
          }
        else if (kind == EV_REFS)
          {
            reserve = h >> 32;
            if (added && !(a_len + reserve <= a_cap && a_len + count <= a_cap && a_len + count <= MAX_EDGES
                           && narrow_all (w + i + 1, count, e_base, shift)))
              break;
            for (guint32 k = 0; added && k < count; k++)
              a32[a_len++] = (guint32) ((w[i + 1 + k] - e_base) >> shift);
            i += 1 + count;
          }
        else
          break;
      }
    x->last = last;
    x->cur_count = cur_count;
    x->n = xn;
    p->r->total_bytes = total;
    p->r->n_objects = n_obj;
    p->e_off.len = off_len;
    p->e_a32.len = a_len;
    p->bt_n = bt_n;
    p->last_added = added;
  }
  return i;
}

/* What the direct path does at once, in the same order with the same
 * arguments, so that the results do not depend on the thread. */
G_ALWAYS_INLINE static inline void
apply_sized (HprofParser *p, const guint64 *w, gsize n, const guint I)
{
  gsize i = 0;

  while (i < n)
    {
      guint64 h;
      guint32 count, dup;
      gsize j = apply_run (p, w, i, n, I);

      if (j != i)
        {
          i = j;
          continue;
        }
      h = w[i];
      count = (guint32) ((h >> 8) & 0xffffff);

      switch (h & 0xff)
        {
        case EV_INST:
          p->last_added = add_object (p, w[i + 1], (guint32) (h >> 32), (guint32) w[i + 2], w[i + 3], n_edges (p));
          if (p->last_added)
            {
              reserve_refs (p, w[i + 2] >> 32);
              for (guint32 k = 0; k < count; k++)
                add_ref_fast (p, w[i + 4 + k], 0, I);
            }
          i += 4 + count;
          break;
        case EV_ARRAY:
          p->last_added = add_object (p, w[i + 1], (guint32) (h >> 32), w[i + 2], w[i + 3], n_edges (p));
          i += 4;
          break;
        case EV_REFS:
          if (p->last_added)
            {
              reserve_refs (p, h >> 32);
              for (guint32 k = 0; k < count; k++)
                add_ref_fast (p, w[i + 1 + k], 0, I);
            }
          i += 1 + count;
          break;
        case EV_ROOT:
          add_root (p, w[i + 1], (guint8) (h >> 8), (guint32) (h >> 32), TM_HPROF_LABEL_NONE);
          i += 2;
          break;
        case EV_CLASS:
          /* class_dump()'s steps for its object, here: whether it is
           * new, then its statics (EV_STATICS), then the rest */
          p->class_have = !hprof_addr_find (&p->map, w[i + 1], &dup);
          p->class_edges0 = n_edges (p);
          p->class_root_addrs0 = p->r_addr.len;
          p->class_roots0 = p->r->roots->len;
          memcpy (p->class_words, w + i + 1, sizeof p->class_words);
          i += 6;
          break;
        case EV_STATICS:
          for (guint32 k = 0; k < count && p->class_have; k++)
            {
              add_ref (p, w[i + 1 + k], TM_HPROF_LABEL_NONE);
              add_root (p, w[i + 1 + k], TM_ROOT_KIND_STATIC, 0, TM_HPROF_LABEL_NONE);
            }
          i += 1 + count;
          break;
        case EV_CLASS_END:
          apply_class_end (p);
          i += 1;
          break;
        case EV_NOTE:
          note_take (p, w[i + 1], (char *) (guintptr) w[i + 2]);
          i += 3;
          break;
        case EV_TYPE:
          p->sink->type (p->user, (guint32) w[i + 1], (const char *) (guintptr) w[i + 2], (guint32) (h >> 32));
          g_free ((char *) (guintptr) w[i + 2]);
          i += 3;
          break;
        case EV_CHECK:
          flush_objects (p);
          /* budget_used and _room are read by the parser once it has the answer */
          p->budget_used = 0;
          p->budget_room = G_MAXUINT64;
          hprof_stream_reply (p->stream, p->sink->over_budget
                                         && p->sink->over_budget (p->user, parser_bytes (p), &p->budget_used, &p->budget_room));
          i += 1;
          break;
        case EV_FLUSH:
          flush_objects (p);
          i += 1;
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static void
apply_events (gpointer user, const guint64 *w, gsize n)
{
  HprofParser *p = user;

  if (p->id_size == 8)
    apply_sized (p, w, n, 8);
  else
    apply_sized (p, w, n, 4);
}

static gint one_thread;

void
hprof_parse_set_one_thread (gboolean on)
{
  g_atomic_int_set (&one_thread, on);
}

/* Objects for the model go through the applying thread (never the
 * graph read: it wants labels, and has no model to build beside; nor
 * with one core, where the thread could only add its events' cost). */
static void
stream_start (HprofParser *p)
{
  if (!p->batches || p->want_labels || g_atomic_int_get (&one_thread) || g_get_num_processors () < 2)
    return;
  p->stream = hprof_stream_new (apply_events, p);
  if (p->stream == NULL)
    return;
  p->chunk = hprof_stream_send (p->stream, NULL);
  p->sw = p->chunk->w;
  p->s_end = p->sw + HPROF_CHUNK_WORDS;
}

/* Everything sent is applied and the thread is gone: the parser's state
 * is this thread's alone again. */
static void
stream_end (HprofParser *p)
{
  if (p->stream == NULL)
    return;
  p->chunk->len = (gsize) (p->sw - p->chunk->w);
  hprof_stream_free (g_steal_pointer (&p->stream), g_steal_pointer (&p->chunk));
  p->sw = p->s_end = NULL;
}

/* ---- records ----------------------------------------------------------- */

static gboolean
parse_header (HprofParser *p, GError **error)
{
  static const char magic[] = "JAVA PROFILE 1.0";
  gsize n = 0;

  need (p, 64);
  if (p->len < sizeof magic - 1 || memcmp (p->buf, magic, sizeof magic - 1) != 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: not an HPROF heap dump"), p->path);
      return FALSE;
    }
  while (n < p->len && n < 32 && p->buf[n] != 0)
    n++;
  if (n == p->len || n == 32 || p->len < n + 13)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("%s: damaged header: the HPROF header is cut short or malformed (byte offset 0)"),
                   p->path);
      return FALSE;
    }
  p->r->version = g_strndup ((const char *) p->buf, n);
  p->pos = n + 1;
  p->id_size = u4 (p);
  if (p->id_size != 4 && p->id_size != 8)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED,
                   "%s: damaged header: identifier size %u at byte offset %" G_GSIZE_FORMAT " (only 4 and 8 exist)",
                   p->path, p->id_size, n + 1);
      return FALSE;
    }
  p->r->id_size = p->id_size;
  p->r->header_ms = ((guint64) u4 (p) << 32);
  p->r->header_ms |= u4 (p);
  /* shallow sizes: a 64-bit VM with compressed oops and class pointers
   * (HotSpot's default below 32 GiB of heap), or a 32-bit VM */
  p->ref_size = 4;
  p->obj_header = p->id_size == 8 ? 12 : 8;
  p->array_header = p->id_size == 8 ? 16 : 12;
  return TRUE;
}

/* Superclasses of the classes in use, as types (also those without
 * instances of their own), so that the model knows the hierarchy. */
static void
define_hierarchy (HprofParser *p)
{
  g_autoptr(GPtrArray) used = g_ptr_array_new ();
  GHashTableIter it;
  gpointer v;

  g_hash_table_iter_init (&it, p->classes);
  while (g_hash_table_iter_next (&it, NULL, &v))
    if (((HprofClass *) v)->type_id != 0)
      g_ptr_array_add (used, v);
  for (guint i = 0; i < used->len; i++)
    {
      HprofClass *c = g_ptr_array_index (used, i);
      for (guint depth = 0; c->dumped && c->super_id != 0 && depth < MAX_CHAIN; depth++)
        {
          HprofClass *s = class_get (p, c->super_id, FALSE);
          gboolean fresh;

          if (s == NULL || s == c)
            break;
          fresh = s->type_id == 0;
          class_type (p, s, 0);
          p->sink->hierarchy (p->user, c->type_id, s->type_id);
          if (!fresh)
            break;     /* its own chain is walked from the list */
          c = s;
        }
    }
}

/* Resolving the references of objects [lo, hi): the targets' indices go
 * to dst[0..], their labels to lab[0..], off[i] becomes the count before
 * object i; e_lo and e_hi are off[lo] and off[hi] before any of that. */
typedef struct {
  HprofParser *p;
  guint32      lo, hi, e_lo, e_hi;
  guint32     *dst, *lab;
  gboolean     report;        /* progress from this part */
  guint32      kept;
  guint64      dangling;
  gboolean     cancelled;
} ResolvePart;

/* wide: the targets are in e_addr (else e_a32), hw: popcnt (see
 * hprof_dense_find_with()), constants in each of resolve_part()'s
 * copies; the arrays and the largest dense runs in locals, as the writes
 * in place could alias the parser's fields */
G_ALWAYS_INLINE static inline void
resolve_range (ResolvePart *part, const gboolean wide, const gboolean hw)
{
  HprofParser *p = part->p;
  guint32 *off = p->e_off.data, *dst = part->dst, *lab = part->lab, e0 = part->e_lo, m = 0;
  const guint32 *lab_in = p->e_label.data, *a32 = p->e_a32.data;
  const guint64 *a64 = p->e_addr.data, base = p->e_base;
  const guint shift = p->e_shift;
  const gboolean labels = p->want_labels;
  /* the two largest dense runs (a collector's old and young spaces) */
  const HprofAddrDense d0 = p->map.n_dense > 0 ? p->map.dense[0] : (HprofAddrDense) { 0 };
  const HprofAddrDense d1 = p->map.n_dense > 1 ? p->map.dense[1] : (HprofAddrDense) { 0 };
  guint64 dangling = 0;

  for (guint32 i = part->lo; i < part->hi; i++)
    {
      guint32 e1 = i + 1 == part->hi ? part->e_hi : off[i + 1];

      off[i] = m;
      for (guint32 e = e0; e < e1; e++)
        {
          guint64 a = wide ? a64[e] : base + ((guint64) a32[e] << shift);
          guint32 t;
          if (G_UNLIKELY (e % RESOLVE_STEP == 0 && e > part->e_lo))
            {
              if (g_cancellable_is_cancelled (p->cancellable))
                {
                  part->cancelled = TRUE;
                  return;
                }
              if (part->report && p->progress != NULL)
                p->progress (READ_SHARE + (1 - READ_SHARE) * (double) (e - part->e_lo) / (double) (part->e_hi - part->e_lo),
                             p->progress_data);
            }
          if (!hprof_dense_find_with (&d0, a, &t, hw) && !hprof_dense_find_with (&d1, a, &t, hw)
              && !hprof_addr_find_slow (&p->map, a, &t))
            {
              dangling++;
              continue;
            }
          if (labels)
            lab[m] = lab_in[e];
          dst[m++] = t;
        }
      e0 = e1;
    }
  part->kept = m;
  part->dangling = dangling;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* Debian's x86-64 baseline has no popcnt; most CPUs that run it do, and
 * a third of a lookup was counting bits without it */
#define RESOLVE_POPCNT 1
static G_NO_INLINE __attribute__ ((target ("popcnt"))) void
resolve_part_popcnt (ResolvePart *part)
{
  if (part->p->e_wide)
    resolve_range (part, TRUE, TRUE);
  else
    resolve_range (part, FALSE, TRUE);
}
#endif

static gpointer
resolve_part (gpointer data)
{
  ResolvePart *part = data;

#ifdef RESOLVE_POPCNT
  if (__builtin_cpu_supports ("popcnt"))
    {
      resolve_part_popcnt (part);
      return NULL;
    }
#endif
  if (part->p->e_wide)
    resolve_range (part, TRUE, FALSE);
  else
    resolve_range (part, FALSE, FALSE);
  return NULL;
}

#define RESOLVE_SPLIT (1u << 20)   /* references worth a second thread */

/* FALSE if cancelled. */
static gboolean
resolve (HprofParser *p)
{
  HprofResult *r = p->r;
  guint32 *off, *dst, total, split = 0;
  ResolvePart parts[2] = { { 0 } };
  GThread *second = NULL;
  gsize m = 0;

  hprof_addr_seal (&p->map);
  tm_vec_u32_push (&p->e_off, (guint32) n_edges (p));
  off = p->e_off.data;
  total = off[r->n_objects];
  /* references: compacted in place, object by object; the targets'
   * indices go where their addresses were (index m lies below address e
   * for m <= e), which spares fresh pages for a copy.  Two halves at
   * once: the upper half writes into its own addresses' bytes (from
   * u32 index its first, or twice that for 8-byte addresses), then
   * moves down. */
  dst = p->e_wide ? (guint32 *) (gpointer) p->e_addr.data : p->e_a32.data;
  if (total >= RESOLVE_SPLIT)
    {
      guint32 lo = 0, hi = r->n_objects;
      while (lo < hi)
        {
          guint32 mid = lo + (hi - lo) / 2;
          if (off[mid] < total / 2)
            lo = mid + 1;
          else
            hi = mid;
        }
      split = lo;
    }
  parts[0] = (ResolvePart) { p, 0, split > 0 ? split : r->n_objects, 0, split > 0 ? off[split] : total,
                             dst, p->e_label.data, TRUE };
  if (split > 0)
    {
      parts[1] = (ResolvePart) { p, split, r->n_objects, off[split], total, dst + (p->e_wide ? 2 : 1) * (gsize) off[split],
                                 p->want_labels ? p->e_label.data + off[split] : NULL, FALSE };
      second = g_thread_try_new ("tm-hprof-resolve", resolve_part, &parts[1], NULL);
      if (second == NULL)
        resolve_part (&parts[1]);
    }
  resolve_part (&parts[0]);
  if (second != NULL)
    g_thread_join (second);
  if (parts[0].cancelled || parts[1].cancelled)
    return FALSE;
  m = parts[0].kept;
  r->dangling_refs += parts[0].dangling + parts[1].dangling;
  if (split > 0)
    {
      memmove (dst + m, parts[1].dst, parts[1].kept * sizeof *dst);
      if (p->want_labels)
        memmove (p->e_label.data + m, parts[1].lab, parts[1].kept * sizeof (guint32));
      for (guint32 i = split; i < r->n_objects; i++)
        off[i] += (guint32) m;
      m += parts[1].kept;
    }
  off[r->n_objects] = (guint32) m;
  r->dst.data = g_renew (guint32, dst, MAX (m, 1));
  r->dst.len = m;
  r->dst.cap = MAX (m, 1);
  memset (&p->e_addr, 0, sizeof p->e_addr);
  memset (&p->e_a32, 0, sizeof p->e_a32);
  p->e_label.len = p->want_labels ? m : 0;
  r->off = p->e_off;
  r->label = p->e_label;
  memset (&p->e_off, 0, sizeof p->e_off);
  memset (&p->e_label, 0, sizeof p->e_label);

  m = 0;
  for (guint i = 0; i < r->roots->len; i++)
    {
      HprofRoot root = g_array_index (r->roots, HprofRoot, i);
      if (root.kind == G_MAXUINT8 || !hprof_addr_find (&p->map, p->r_addr.data[i], &root.object))
        {
          if (root.kind != G_MAXUINT8)
            r->dangling_roots++;
          continue;
        }
      g_array_index (r->roots, HprofRoot, m++) = root;
    }
  g_array_set_size (r->roots, (guint) m);
  return TRUE;
}

gboolean
tm_hprof_parse (const char      *path,
                const HprofSink *sink,
                gpointer         user,
                gboolean         want_labels,
                TmProgressFunc   progress,
                gpointer         progress_data,
                GCancellable    *cancellable,
                HprofResult     *result,
                GError         **error)
{
  HprofParser p = { 0 };
  gboolean ok = FALSE, saw_segment = FALSE, saw_end = FALSE;

  memset (result, 0, sizeof *result);
  result->roots = g_array_new (FALSE, FALSE, sizeof (HprofRoot));
  result->notes = g_ptr_array_new_with_free_func (g_free);
  result->note_offsets = g_ptr_array_new ();
  if (want_labels)
    {
      result->labels = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (result->labels, NULL);
    }

  p.path = path;
  p.src = tm_heaptrack_source_open (path, error);
  if (p.src == NULL)
    return FALSE;
  p.r = result;
  p.sink = sink;
  p.batches = sink != NULL && sink->objects != NULL;
  p.user = user;
  p.want_labels = want_labels;
  p.progress = progress;
  p.progress_data = progress_data;
  p.cancellable = cancellable;
  if (!tm_heaptrack_source_compressed (p.src) && tm_heaptrack_source_size (p.src) > 0)
    p.mapped = g_mapped_file_new (path, FALSE, NULL);
  if (p.mapped != NULL && g_mapped_file_get_length (p.mapped) == tm_heaptrack_source_size (p.src))
    {
      p.buf = (guint8 *) g_mapped_file_get_contents (p.mapped);
      p.len = p.cap = g_mapped_file_get_length (p.mapped);
      p.eof = TRUE;
    }
  else
    {
      /* compressed or not mappable: read through a buffer (small
       * inputs need no 256 KiB one) */
      g_clear_pointer (&p.mapped, g_mapped_file_unref);
      p.cap = (gsize) CLAMP (tm_heaptrack_source_size (p.src) * 4, 4096, BUF_SIZE);
      p.buf = g_malloc (p.cap);
    }
  p.strings = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  p.class_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  p.classes = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, hprof_class_free);
  p.label_index = g_hash_table_new (g_str_hash, g_str_equal);
  p.threads_seen = g_hash_table_new (NULL, NULL);
  p.next_type = TM_HPROF_TYPE_FIRST_CLASS;

  if (!parse_header (&p, error))
    goto out;
  p.e_shift = p.id_size == 8 ? 3 : 0;
  if (sink && sink->type)
    sink->type (user, TM_HPROF_TYPE_CLASS, "java.lang.Class", 0);
  stream_start (&p);

  for (;;)
    {
      guint64 at = off (&p), length;
      guint tag;

      if (!need (&p, 9))
        {
          if (p.len > p.pos || p.io_error)
            stop (&p, at, "the file ends inside the record header at byte offset %" G_GUINT64_FORMAT, at);
          break;
        }
      tag = u1 (&p);
      p.pos += 4;       /* time: read for heap dumps below */
      length = u4 (&p);

      if (tag == TAG_HEAP_DUMP || tag == TAG_HEAP_DUMP_SEGMENT)
        {
          if (!result->have_dump)
            {
              result->have_dump = TRUE;
              result->dump_time_us = rd_u4 (p.buf + p.pos - 8);
            }
          /* length 0 in a HEAP DUMP: to the end of the file (old writers) */
          saw_segment |= tag == TAG_HEAP_DUMP_SEGMENT;
          if (!heap_dump (&p, length, tag == TAG_HEAP_DUMP && length == 0, at))
            {
              if (g_cancellable_set_error_if_cancelled (cancellable, error))
                goto out;
              break;
            }
        }
      else if (tag == TAG_HEAP_DUMP_END)
        {
          saw_end = TRUE;
          if (!skip (&p, length))
            {
              stop (&p, at, "the file ends inside the record 0x%02x at byte offset %" G_GUINT64_FORMAT, tag, at);
              break;
            }
        }
      else if (tag == TAG_UTF8 || tag == TAG_LOAD_CLASS)
        {
          gboolean small = length <= MAX_UTF8;
          if (length < (tag == TAG_UTF8 ? p.id_size : 8 + 2u * p.id_size))
            {
              note (&p, at, "record 0x%02x at byte offset %" G_GUINT64_FORMAT " is too short; skipped", tag, at);
              small = FALSE;
            }
          if (!small)
            {
              if (!skip (&p, length))
                {
                  stop (&p, at, "the file ends inside the record at byte offset %" G_GUINT64_FORMAT, at);
                  break;
                }
              continue;
            }
          if (!need (&p, (gsize) length))
            {
              stop (&p, at, "the file ends inside the record at byte offset %" G_GUINT64_FORMAT, at);
              break;
            }
          if (tag == TAG_UTF8)
            {
              guint64 *key = g_new (guint64, 1);
              *key = id (&p);
              g_hash_table_replace (p.strings, key,
                                    g_utf8_make_valid ((const char *) p.buf + p.pos, (gssize) (length - p.id_size)));
              p.pos += length - p.id_size;
            }
          else
            {
              guint64 *key = g_new (guint64, 1), *name = g_new (guint64, 1);
              p.pos += 4;
              *key = id (&p);
              p.pos += 4;
              *name = id (&p);
              g_hash_table_replace (p.class_names, key, name);
              p.pos += length - (8 + 2u * p.id_size);
            }
        }
      else if (!skip (&p, length))
        {
          stop (&p, at, "the file ends inside the record 0x%02x at byte offset %" G_GUINT64_FORMAT, tag, at);
          break;
        }
      if (off (&p) >= p.next_check)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            goto out;
          check_progress (&p);
        }
    }
  stream_end (&p);
  if (p.io_error != NULL && !result->stopped)
    stop (&p, off (&p), "%s", p.io_error->message);
  else if (!result->stopped && tm_heaptrack_source_cut_short (p.src))
    stop (&p, off (&p), "the compressed data is cut short (after %" G_GUINT64_FORMAT " bytes of dump)", off (&p));
  else if (!result->stopped && saw_segment && !saw_end)
    stop (&p, off (&p), "no HEAP DUMP END record: the dump was cut short at byte offset %" G_GUINT64_FORMAT, off (&p));
  if (result->stopped && p.io_error == NULL && tm_heaptrack_source_compressed (p.src))
    {
      /* for compressed input, name the compressed position too */
      char *reason = g_strdup_printf ("%s (byte offset %" G_GUINT64_FORMAT " of the decompressed dump, near byte %"
                                      G_GUINT64_FORMAT " of the file)", result->stop_reason, result->stop_offset,
                                      tm_heaptrack_source_offset (p.src));
      g_free (result->stop_reason);
      result->stop_reason = reason;
    }
  if (sink != NULL && sink->objects != NULL)
    flush_objects (&p);
  if (p.edges_dropped > 0)
    note (&p, 0, "%" G_GUINT64_FORMAT " references past the first 2^32 - 1 are left out of the graph", p.edges_dropped);
  if (sink != NULL && sink->hierarchy != NULL)
    define_hierarchy (&p);
  if (!resolve (&p))
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      goto out;
    }
  ok = TRUE;

out:
  stream_end (&p);
  tm_vec_u64_clear (&p.statics);
  tm_heaptrack_source_close (p.src);
  if (p.mapped != NULL)
    g_mapped_file_unref (p.mapped);
  else
    g_free (p.buf);
  g_clear_error (&p.io_error);
  g_hash_table_unref (p.strings);
  g_hash_table_unref (p.class_names);
  g_hash_table_unref (p.classes);
  g_hash_table_unref (p.label_index);
  g_hash_table_unref (p.threads_seen);
  hprof_addr_clear (&p.map);
  tm_vec_u32_clear (&p.e_off);
  g_free (p.bt_type);
  g_free (p.bt_size);
  tm_vec_u64_clear (&p.e_addr);
  tm_vec_u32_clear (&p.e_a32);
  tm_vec_u32_clear (&p.e_label);
  tm_vec_u64_clear (&p.r_addr);
  if (!ok)
    tm_hprof_result_clear (result);
  return ok;
}

void
tm_hprof_result_clear (HprofResult *r)
{
  g_clear_pointer (&r->version, g_free);
  tm_vec_u32_clear (&r->off);
  tm_vec_u32_clear (&r->dst);
  tm_vec_u32_clear (&r->label);
  g_clear_pointer (&r->roots, g_array_unref);
  g_clear_pointer (&r->labels, g_ptr_array_unref);
  g_clear_pointer (&r->stop_reason, g_free);
  g_clear_pointer (&r->notes, g_ptr_array_unref);
  g_clear_pointer (&r->note_offsets, g_ptr_array_unref);
}
