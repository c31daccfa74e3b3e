/* SPDX-License-Identifier: GPL-3.0-or-later
 * Constants of trace format v1 (docs/trace-format.md). */
#pragma once

#define TM_TRACE_MAGIC      "TMTRACE1"
#define TM_TRACE_MAGIC_LEN  8

enum {
  TM_TAG_HEADER      = 0x01,
  TM_TAG_SPACE       = 0x02,
  TM_TAG_TYPE        = 0x03,
  TM_TAG_FRAME       = 0x04,
  TM_TAG_SITE        = 0x05,
  TM_TAG_THREAD      = 0x06,
  TM_TAG_META        = 0x07,
  TM_TAG_ALLOC       = 0x10,
  TM_TAG_DEATHS      = 0x11,
  TM_TAG_MOVES       = 0x12,
  TM_TAG_TICK        = 0x13,
  TM_TAG_GC_START    = 0x20,
  TM_TAG_GC_END      = 0x21,
  TM_TAG_GRAPH_BEGIN = 0x22,
  TM_TAG_ROOTS       = 0x23,
  TM_TAG_REFS        = 0x24,
  TM_TAG_GRAPH_END   = 0x25,
  TM_TAG_OOM         = 0x26,
  TM_TAG_GRAPH_FAILED  = 0x27,
  TM_TAG_GRAPH_CONTEXT = 0x28,
  TM_TAG_TX_KIND     = 0x38,
  TM_TAG_TRANSACTION = 0x39,
  TM_TAG_CONTAINER_OP = 0x40,
  TM_TAG_END         = 0x7F,
};

/* Writers close a zstd frame at least every this many raw bytes. */
#define TM_TRACE_FRAME_RAW_BYTES (8u << 20)
/* Longest string the format allows. */
#define TM_TRACE_MAX_STRING      (1u << 20)
/* Longest record a reader accepts (a REFS record of a 30-million-element
 * array); longer is treated as damage. */
#define TM_TRACE_MAX_RECORD      (256u << 20)
