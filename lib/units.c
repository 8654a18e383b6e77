// SPDX-License-Identifier: MIT
/*
 * units.c - byte sizes as people write them, and back.
 *
 * parse_size() reads "4096", "4K", "200MiB", "1.5g": binary units only, so a
 * fractional number is exact or refused ("0.3K" is 307.2 bytes: -EINVAL).
 * The fraction is kept as decimal digits and doubled once per bit of the
 * unit, which is exact for any number of digits and cannot overflow.
 * format_size() prints the shortest string that parses back to the same
 * number, so sizes in file names and tables stay short and exact.
 */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A fraction of a T (2^40) unit has at most 40 significant decimal digits. */
#define UNITS_MAX_FRAC_DIGITS 40

static const char units_letters[] = "KMGT";

/* K -> 10, M -> 20, G -> 30, T -> 40; -1 for anything else. */
static int units_shift(char c)
{
	const char *p = strchr(units_letters, toupper((unsigned char)c));

	if (!c || !p)
		return -1;
	return 10 * (int)(p - units_letters + 1);
}

/* Accepts "", "B", "iB" (any case) after a unit letter; "" or "B" without. */
static int units_suffix_ok(const char *s, int has_unit)
{
	if (has_unit && tolower((unsigned char)s[0]) == 'i')
		s++;
	else if (!*s)
		return 1;
	return tolower((unsigned char)s[0]) == 'b' && s[1] == '\0';
}

/*
 * frac[0..d) holds decimal digits of a fraction 0.f1f2...; multiplies it by
 * 2^shift and returns the integer part; 0 fraction left means exact.
 */
static uint64_t units_scale_fraction(char *frac, int d, int shift, int *exact)
{
	uint64_t whole = 0;

	for (int bit = 0; bit < shift; bit++) {
		int carry = 0;

		for (int i = d - 1; i >= 0; i--) {
			int v = frac[i] * 2 + carry;

			frac[i] = (char)(v % 10);
			carry = v / 10;
		}
		whole = whole * 2 + (uint64_t)carry;
	}
	*exact = 1;
	for (int i = 0; i < d; i++)
		if (frac[i])
			*exact = 0;
	return whole;
}

static int units_parse_integer(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len; i++) {
		uint64_t digit = (uint64_t)(s[i] - '0');

		if (v > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char frac[UNITS_MAX_FRAC_DIGITS];
	size_t int_len, frac_len = 0;
	const char *frac_start = NULL, *p;
	uint64_t whole, part;
	int shift = 0, exact, ret;

	if (!s)
		return -EINVAL;
	int_len = strspn(s, "0123456789");
	if (int_len == 0)
		return -EINVAL;
	p = s + int_len;
	if (*p == '.') {
		frac_start = p + 1;
		frac_len = strspn(frac_start, "0123456789");
		if (frac_len == 0)
			return -EINVAL;
		p = frac_start + frac_len;
	}
	shift = units_shift(*p);
	if (shift > 0)
		p++;
	if (!units_suffix_ok(p, shift > 0))
		return -EINVAL;
	if (frac_start && shift <= 0)
		return -EINVAL;		/* "1.5" alone is a fraction of a byte */

	ret = units_parse_integer(s, int_len, &whole);
	if (ret)
		return ret;
	while (frac_len > 0 && frac_start[frac_len - 1] == '0')
		frac_len--;
	if (frac_len > UNITS_MAX_FRAC_DIGITS)
		return -EINVAL;		/* too many digits to be exact */
	for (size_t i = 0; i < frac_len; i++)
		frac[i] = (char)(frac_start[i] - '0');
	part = units_scale_fraction(frac, (int)frac_len, shift > 0 ? shift : 0,
				    &exact);
	if (!exact)
		return -EINVAL;
	if (shift > 0) {
		if (whole > (UINT64_MAX >> shift))
			return -ERANGE;
		whole <<= shift;
	}
	if (whole > UINT64_MAX - part)
		return -ERANGE;
	*out = whole + part;
	return 0;
}

/* bytes as a number of 2^shift units, with as many decimals as it needs. */
static void units_format_in(uint64_t bytes, int shift, char *out, size_t n)
{
	uint64_t mask = (1ull << shift) - 1;
	uint64_t rest = bytes & mask;
	int len;

	len = snprintf(out, n, "%llu", (unsigned long long)(bytes >> shift));
	if (len < 0 || (size_t)len >= n)
		return;
	if (rest && (size_t)len + 1 < n)
		out[len++] = '.';
	while (rest && (size_t)len + 1 < n) {
		rest *= 10;
		out[len++] = (char)('0' + (rest >> shift));
		rest &= mask;
	}
	if (shift && (size_t)len + 1 < n)
		out[len++] = units_letters[shift / 10 - 1];
	out[len] = '\0';
}

/* Shortest form wins; on a tie, the one without a decimal point. */
void format_size(uint64_t bytes, char *out, size_t n)
{
	char best[64], cand[64];

	if (!n)
		return;
	units_format_in(bytes, 0, best, sizeof(best));
	for (int shift = 10; shift <= 40 && bytes >> shift; shift += 10) {
		size_t blen = strlen(best), clen;

		units_format_in(bytes, shift, cand, sizeof(cand));
		clen = strlen(cand);
		if (clen < blen || (clen == blen && strchr(best, '.') &&
				    !strchr(cand, '.')))
			memcpy(best, cand, clen + 1);
	}
	snprintf(out, n, "%s", best);
}

void format_name(const char *name, char *out, size_t n)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p && o + 5 < n; p++) {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			out[o++] = (char)*p;
		else
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", *p);
	}
	if (n)
		out[o < n ? o : n - 1] = '\0';
}
