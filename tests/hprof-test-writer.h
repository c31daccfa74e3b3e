/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small HPROF writer for tests and fuzz seeds: writes the records and
 * sub-records byte by byte as the format says (HotSpot's heapDumper.cpp),
 * independently of the importer, with ids of 4 or 8 bytes, HEAP DUMP
 * (1.0.1) or HEAP DUMP SEGMENT (1.0.2) records. */
#pragma once

#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

typedef struct {
  GByteArray *out;
  guint       id_size;
  gboolean    segments;   /* 1.0.2 */
  guint       rec_at;     /* start of the open heap dump record */
} HprofW;

static inline void hw_u1 (HprofW *w, guint v) { guint8 b = (guint8) v; g_byte_array_append (w->out, &b, 1); }
static inline void hw_u2 (HprofW *w, guint v) { hw_u1 (w, v >> 8); hw_u1 (w, v); }
static inline void hw_u4 (HprofW *w, guint32 v) { hw_u2 (w, v >> 16); hw_u2 (w, v & 0xffff); }
static inline void hw_u8 (HprofW *w, guint64 v) { hw_u4 (w, (guint32) (v >> 32)); hw_u4 (w, (guint32) v); }
static inline void hw_id (HprofW *w, guint64 v) { if (w->id_size == 4) hw_u4 (w, (guint32) v); else hw_u8 (w, v); }

static inline void
hw_begin (HprofW *w, guint id_size, gboolean segments, guint64 ms)
{
  const char *magic = segments ? "JAVA PROFILE 1.0.2" : "JAVA PROFILE 1.0.1";
  w->out = g_byte_array_new ();
  w->id_size = id_size;
  w->segments = segments;
  g_byte_array_append (w->out, (const guint8 *) magic, (guint) strlen (magic) + 1);
  hw_u4 (w, id_size);
  hw_u8 (w, ms);
}

static inline void
hw_record (HprofW *w, guint tag, guint32 time_us, guint32 len)
{
  hw_u1 (w, tag);
  hw_u4 (w, time_us);
  hw_u4 (w, len);
}

static inline void
hw_utf8 (HprofW *w, guint64 sid, const char *s)
{
  hw_record (w, 0x01, 0, w->id_size + (guint32) strlen (s));
  hw_id (w, sid);
  g_byte_array_append (w->out, (const guint8 *) s, (guint) strlen (s));
}

static inline void
hw_load_class (HprofW *w, guint32 serial, guint64 cid, guint64 name_sid)
{
  hw_record (w, 0x02, 0, 8 + 2 * w->id_size);
  hw_u4 (w, serial);
  hw_id (w, cid);
  hw_u4 (w, 0);
  hw_id (w, name_sid);
}

/* opens a heap dump record; its length is patched by hw_heap_end */
static inline void
hw_heap_begin (HprofW *w, guint32 time_us)
{
  w->rec_at = w->out->len;
  hw_record (w, w->segments ? 0x1C : 0x0C, time_us, 0);
}

static inline void
hw_heap_end (HprofW *w)
{
  guint32 len = w->out->len - w->rec_at - 9;
  guint8 *p = w->out->data + w->rec_at + 5;
  p[0] = (guint8) (len >> 24); p[1] = (guint8) (len >> 16); p[2] = (guint8) (len >> 8); p[3] = (guint8) len;
}

static inline void
hw_finish (HprofW *w)
{
  if (w->segments)
    hw_record (w, 0x2C, 0, 0);
}

/* a class dump: statics as (name sid, type, value), instance fields as
 * (name sid, type); values of non-object statics are written as 0 */
typedef struct { guint64 name; guint type; guint64 value; } HwField;

static inline guint
hw_type_size (HprofW *w, guint t)
{
  switch (t)
    {
    case 2: return w->id_size;
    case 4: case 8: return 1;
    case 5: case 9: return 2;
    case 6: case 10: return 4;
    default: return 8;
    }
}

static inline void
hw_class_dump (HprofW *w, guint64 cid, guint64 super, guint64 loader, guint32 instance_size,
               const HwField *statics, guint n_statics, const HwField *fields, guint n_fields)
{
  hw_u1 (w, 0x20);
  hw_id (w, cid);
  hw_u4 (w, 0);
  hw_id (w, super);
  hw_id (w, loader);
  for (guint i = 0; i < 4; i++)
    hw_id (w, 0);
  hw_u4 (w, instance_size);
  hw_u2 (w, 1);            /* one constant pool entry, an int */
  hw_u2 (w, 7);
  hw_u1 (w, 10);
  hw_u4 (w, 42);
  hw_u2 (w, n_statics);
  for (guint i = 0; i < n_statics; i++)
    {
      hw_id (w, statics[i].name);
      hw_u1 (w, statics[i].type);
      if (statics[i].type == 2)
        hw_id (w, statics[i].value);
      else
        for (guint k = 0; k < hw_type_size (w, statics[i].type); k++)
          hw_u1 (w, 0);
    }
  hw_u2 (w, n_fields);
  for (guint i = 0; i < n_fields; i++)
    {
      hw_id (w, fields[i].name);
      hw_u1 (w, fields[i].type);
    }
}

static inline void
hw_instance (HprofW *w, guint64 oid, guint64 cid, guint32 nbytes)
{
  hw_u1 (w, 0x21);
  hw_id (w, oid);
  hw_u4 (w, 0);
  hw_id (w, cid);
  hw_u4 (w, nbytes);
  /* the field bytes follow, written by the caller */
}

static inline void
hw_obj_array (HprofW *w, guint64 oid, guint64 array_cid, const guint64 *elems, guint32 n)
{
  hw_u1 (w, 0x22);
  hw_id (w, oid);
  hw_u4 (w, 0);
  hw_u4 (w, n);
  hw_id (w, array_cid);
  for (guint32 i = 0; i < n; i++)
    hw_id (w, elems[i]);
}

static inline void
hw_prim_array (HprofW *w, guint64 oid, guint type, guint32 n)
{
  hw_u1 (w, 0x23);
  hw_id (w, oid);
  hw_u4 (w, 0);
  hw_u4 (w, n);
  hw_u1 (w, type);
  for (guint32 i = 0; i < n * hw_type_size (w, type); i++)
    hw_u1 (w, (guint8) i);
}

/* the test heap:  Registry.INSTANCE (static) -> R; R.items -> A (Node[3]);
 * A = {N1, N2, null}; N1.next = N2; N2.next = N3; N3 on a thread's stack;
 * P (int[10]) a JNI global; T a thread object; G a Node no root reaches,
 * G.next = N1.  Every root kind appears once.  Objects in the file:
 * classes Object, Node, Registry, Node[]; then R, A, N1, N2, N3, P, T, G.
 * A second heap dump record starts with an unknown sub-record (which
 * ends that record) when `unknown_sub` is set. */
enum { HW_OBJECT = 0x100, HW_NODE = 0x108, HW_REGISTRY = 0x110, HW_NODE_ARRAY = 0x118,
       HW_R = 0x1000, HW_A = 0x1010, HW_N1 = 0x1020, HW_N2 = 0x1030, HW_N3 = 0x1040,
       HW_P = 0x1050, HW_T = 0x1060, HW_G = 0x1070 };

static inline void
hw_node_fields (HprofW *w, guint64 next, guint32 value)
{
  hw_id (w, next);
  hw_u4 (w, value);
}

static inline GBytes *
hw_test_heap_at (guint id_size, gboolean segments, gboolean unknown_sub, guint64 ms)
{
  HprofW w;
  HwField node_fields[] = { { 21, 2, 0 }, { 22, 10, 0 } };
  HwField reg_fields[] = { { 23, 2, 0 } };
  HwField reg_statics[] = { { 24, 2, HW_R }, { 25, 10, 0 } };
  guint64 elems[] = { HW_N1, HW_N2, 0 };

  hw_begin (&w, id_size, segments, ms);
  hw_utf8 (&w, 11, "java/lang/Object");
  hw_utf8 (&w, 12, "com/example/Node");
  hw_utf8 (&w, 13, "com/example/Registry");
  hw_utf8 (&w, 14, "[Lcom/example/Node;");
  hw_utf8 (&w, 21, "next");
  hw_utf8 (&w, 22, "value");
  hw_utf8 (&w, 23, "items");
  hw_utf8 (&w, 24, "INSTANCE");
  hw_utf8 (&w, 25, "count");
  hw_load_class (&w, 1, HW_OBJECT, 11);
  hw_load_class (&w, 2, HW_NODE, 12);
  hw_load_class (&w, 3, HW_REGISTRY, 13);
  hw_load_class (&w, 4, HW_NODE_ARRAY, 14);
  hw_record (&w, 0x0A, 0, 0);   /* a record the importer does not use: skipped */

  hw_heap_begin (&w, 5000);
  hw_class_dump (&w, HW_OBJECT, 0, 0, 0, NULL, 0, NULL, 0);
  hw_class_dump (&w, HW_NODE, HW_OBJECT, 0, id_size + 4, NULL, 0, node_fields, 2);
  hw_class_dump (&w, HW_REGISTRY, HW_OBJECT, 0, id_size, reg_statics, 2, reg_fields, 1);
  hw_class_dump (&w, HW_NODE_ARRAY, HW_OBJECT, 0, 0, NULL, 0, NULL, 0);
  /* one root of every kind */
  hw_u1 (&w, 0xFF); hw_id (&w, HW_T);                                   /* unknown */
  hw_u1 (&w, 0x01); hw_id (&w, HW_P); hw_id (&w, 0x9999);               /* JNI global */
  hw_u1 (&w, 0x02); hw_id (&w, HW_P); hw_u4 (&w, 1); hw_u4 (&w, 0);     /* JNI local */
  hw_u1 (&w, 0x03); hw_id (&w, HW_N3); hw_u4 (&w, 1); hw_u4 (&w, 2);    /* Java frame */
  hw_u1 (&w, 0x04); hw_id (&w, HW_T); hw_u4 (&w, 1);                    /* native stack */
  hw_u1 (&w, 0x05); hw_id (&w, HW_OBJECT);                              /* sticky class */
  hw_u1 (&w, 0x06); hw_id (&w, HW_T); hw_u4 (&w, 1);                    /* thread block */
  hw_u1 (&w, 0x07); hw_id (&w, HW_T);                                   /* monitor used */
  hw_u1 (&w, 0x08); hw_id (&w, HW_T); hw_u4 (&w, 1); hw_u4 (&w, 0);     /* thread object */
  hw_instance (&w, HW_R, HW_REGISTRY, id_size);
  hw_id (&w, HW_A);
  hw_obj_array (&w, HW_A, HW_NODE_ARRAY, elems, 3);
  hw_instance (&w, HW_N1, HW_NODE, id_size + 4);
  hw_node_fields (&w, HW_N2, 1);
  if (segments)
    {
      /* a HEAP DUMP SEGMENT ends between sub-records */
      hw_heap_end (&w);
      hw_heap_begin (&w, 5000);
    }
  hw_instance (&w, HW_N2, HW_NODE, id_size + 4);
  hw_node_fields (&w, HW_N3, 2);
  hw_instance (&w, HW_N3, HW_NODE, id_size + 4);
  hw_node_fields (&w, 0, 3);
  hw_prim_array (&w, HW_P, 10, 10);
  hw_instance (&w, HW_T, HW_OBJECT, 0);
  hw_instance (&w, HW_G, HW_NODE, id_size + 4);
  hw_node_fields (&w, HW_N1, 4);
  hw_heap_end (&w);
  if (unknown_sub && segments)
    {
      hw_heap_begin (&w, 5000);
      hw_u1 (&w, 0x77);
      hw_u4 (&w, 0xdeadbeef);
      hw_heap_end (&w);
    }
  hw_finish (&w);
  return g_byte_array_free_to_bytes (w.out);
}

static inline GBytes *
hw_test_heap (guint id_size, gboolean segments, gboolean unknown_sub)
{
  return hw_test_heap_at (id_size, segments, unknown_sub, G_GUINT64_CONSTANT (1700000000000));
}

/* A scratch folder for written dumps, and its removal with them. */
static inline char *
hw_file_in (const char *dir, const char *name, GBytes *bytes)
{
  char *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  return path;
}

static inline void
hw_remove_dir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
      g_free (p);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
}
