/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-axis.h"

#include <math.h>

double
tm_axis_nice_number (double x, gboolean round)
{
  double e, f, nf;

  if (!(x > 0) || !isfinite (x))
    return 1.0;

  e = floor (log10 (x));
  f = x / pow (10.0, e);
  if (round)
    nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  else
    nf = f <= 1.0 + 1e-9 ? 1 : f <= 2.0 + 1e-9 ? 2 : f <= 5.0 + 1e-9 ? 5 : 10;
  return nf * pow (10.0, e);
}

/* Minutes read better in steps a clock uses. */
static double
nice_minutes (double x)
{
  static const double steps[] = { 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 240, 480, 720, 1440 };

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (x <= steps[i] + 1e-9)
      return steps[i];
  return tm_axis_nice_number (x, FALSE);
}

static void
choose_unit (TmAxisTicks *t, TmAxisUnit unit, double magnitude)
{
  switch (unit)
    {
    case TM_AXIS_UNIT_BYTES:
      {
        static const char *names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
        guint u = 0;
        double s = 1;

        while (u + 1 < G_N_ELEMENTS (names) && magnitude >= s * 1024)
          {
            s *= 1024;
            u++;
          }
        t->scale = s;
        t->suffix = names[u];
      }
      break;

    case TM_AXIS_UNIT_TIME_NS:
      if (magnitude >= 180e9)
        t->scale = 60e9, t->suffix = "min";
      else if (magnitude >= 2e9)
        t->scale = 1e9, t->suffix = "s";
      else if (magnitude >= 2e6)
        t->scale = 1e6, t->suffix = "ms";
      else
        t->scale = 1e3, t->suffix = "µs";
      break;

    case TM_AXIS_UNIT_FRACTION:
      t->scale = 0.01;
      t->suffix = "%";
      break;

    case TM_AXIS_UNIT_COUNT:
    default:
      if (magnitude >= 2e9)
        t->scale = 1e9, t->suffix = "G";
      else if (magnitude >= 2e6)
        t->scale = 1e6, t->suffix = "M";
      else if (magnitude >= 2e3)
        t->scale = 1e3, t->suffix = "K";
      else
        t->scale = 1, t->suffix = "";
      break;
    }
}

void
tm_axis_ticks (TmAxisTicks *t,
               TmAxisUnit   unit,
               double       min,
               double       max,
               guint        max_ticks,
               gboolean     extend_max)
{
  double span, raw, step, first;

  g_return_if_fail (t != NULL);

  max_ticks = CLAMP (max_ticks, 2, TM_AXIS_MAX_TICKS);
  if (!isfinite (min))
    min = 0;
  if (!isfinite (max) || max <= min)
    max = min + (unit == TM_AXIS_UNIT_FRACTION ? 0.01 : unit == TM_AXIS_UNIT_TIME_NS ? 1e6 : 1.0);

  choose_unit (t, unit, MAX (fabs (min), fabs (max)));
  /* a short time range far from 0 (a log that starts at 200 s): steps of
   * whole minutes would leave it without ticks */
  if (unit == TM_AXIS_UNIT_TIME_NS && t->scale == 60e9 && max - min < 180e9)
    t->scale = 1e9, t->suffix = "s";
  span = (max - min) / t->scale;
  raw = span / (max_ticks - 1);
  if (unit == TM_AXIS_UNIT_TIME_NS && t->scale == 60e9)
    step = nice_minutes (raw);
  else
    step = tm_axis_nice_number (raw, FALSE);
  /* Counts below one and bytes below one byte make no sense as steps. */
  if ((unit == TM_AXIS_UNIT_COUNT || unit == TM_AXIS_UNIT_BYTES) && t->scale == 1 && step < 1)
    step = 1;
  step *= t->scale;

  if (extend_max)
    max = ceil (max / step - 1e-9) * step;

  t->min = min;
  t->max = max;
  t->step = step;
  t->n_ticks = 0;

  first = ceil (min / step - 1e-9) * step;
  for (double v = first; v <= max + step * 1e-6 && t->n_ticks < TM_AXIS_MAX_TICKS; )
    {
      t->ticks[t->n_ticks++] = fabs (v) < step * 1e-9 ? 0.0 : v;
      v = first + t->n_ticks * step;
    }
}

char *
tm_axis_format_tick (const TmAxisTicks *t, double value)
{
  double s = t->step / t->scale;
  int decimals = 0;
  double v = value / t->scale;

  g_return_val_if_fail (t != NULL, NULL);

  while (decimals < 3 && fabs (s - round (s)) > 1e-6 * MAX (1.0, s))
    {
      s *= 10;
      decimals++;
    }
  if (fabs (v) < 1e-12)
    {
      /* Zero needs no unit on value axes ("0", not "0K"). */
      if (t->suffix[0] == '\0' || (t->suffix[1] == '\0' && g_ascii_isupper (t->suffix[0]) && t->suffix[0] != 'B'))
        return g_strdup ("0");
      v = 0;
    }

  if (t->suffix[0] == '\0')
    return g_strdup_printf ("%.*f", decimals, v);
  if (t->suffix[0] == '%')
    return g_strdup_printf ("%.*f%%", decimals, v);
  if (t->suffix[1] == '\0' && g_ascii_isupper (t->suffix[0]) && t->suffix[0] != 'B')
    return g_strdup_printf ("%.*f%s", decimals, v, t->suffix);   /* 250K, 1.5M */
  return g_strdup_printf ("%.*f %s", decimals, v, t->suffix);
}
