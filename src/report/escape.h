/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_REPORT_ESCAPE_H
#define KVET_REPORT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/utf8.h"

/*
 * The escaping of each report format, one function per format, exposed
 * here for the unit tests (JSON strings are base/json.h's, which the
 * baseline file writes too). Input text comes from manifests and may hold
 * anything: control characters, invalid UTF-8, NUL bytes. Every writer
 * below turns it into output that is valid for its format.
 *
 * They write with stdio and do not report errors: the caller checks
 * ferror() once after the whole report.
 */

/* Text for a terminal is kvet_text_write() (kvet/kvet.h, base/text.c):
 * the command's own messages use it too. */
#include "base/text.h"

/* The widest source excerpt shown under a message, in bytes. */
#define KVET_TEXT_EXCERPT_MAX 240

/**
 * kvet_text_write_excerpt() - write a source line and a caret line under
 * one of its columns.
 * @fp: the stream.
 * @line: the line, without its line break (a trailing CR is dropped).
 * @len: its length in bytes.
 * @column: 1-based, in code points, a tab counting as one; 0 writes the
 *          source line alone. A column past the end of the line puts the
 *          caret just after its last character.
 * @caret_on: written just before the caret (a colour), or NULL.
 * @caret_off: written just after it, or NULL.
 *
 * The caret line repeats every tab of the source line before the column,
 * and has a space for every other character, so the caret sits under the
 * column whatever the terminal's tab width. Lines longer than
 * KVET_TEXT_EXCERPT_MAX bytes are cut to a window around the column,
 * with "..." marking each cut.
 */
void kvet_text_write_excerpt(FILE *fp, const char *line, size_t len,
			     unsigned int column, const char *caret_on,
			     const char *caret_off);

/**
 * kvet_xml_sanitize() - make text safe to hand to libxml2's writer.
 * @s: the bytes, not necessarily NUL-terminated.
 * @len: their number.
 *
 * libxml2 escapes '&', '<', '>' and '"' itself but passes through what
 * XML 1.0 (section 2.2, Char) forbids, which makes the document
 * ill-formed. So every invalid UTF-8 byte, NUL, every C0 control
 * character other than tab, LF and CR, and U+FFFE and U+FFFF become
 * U+FFFD here.
 *
 * Returns: a NUL-terminated copy the caller frees, or NULL when out of
 * memory.
 */
char *kvet_xml_sanitize(const char *s, size_t len);

/**
 * kvet_github_write() - write text into a GitHub Actions workflow command.
 * @fp: the stream.
 * @s: the bytes, not necessarily NUL-terminated.
 * @len: their number.
 * @property: true for a property value (file=, title=), false for the
 *            message after "::".
 *
 * GitHub's runner unescapes %25, %0D and %0A in messages, and also %3A
 * and %2C in properties, so '%', CR and LF (and ':' and ',' in
 * properties) are written that way. Other control characters and invalid
 * bytes become U+FFFD, so that a message cannot inject a second command
 * or terminal escapes into the log.
 */
void kvet_github_write(FILE *fp, const char *s, size_t len, bool property);

/**
 * kvet_markdown_write() - write text into a Markdown report, inline.
 * @fp: the stream.
 * @s: the bytes, not necessarily NUL-terminated.
 * @len: their number.
 *
 * '<', '>' and '&' become HTML entities (no tag, entity or autolink),
 * the characters of inline syntax (\ ` * _ [ ] | ~ ! #) are escaped with
 * a backslash (CommonMark 2.4), so that no emphasis, code span, link,
 * image or table cell starts in them, and so are the ':' of "://" and
 * the '.' of a "www." (GitHub Flavored Markdown's autolinks). '@' is
 * followed by an empty HTML comment, which ends the text node: no
 * @mention, no mailto: autolink. Line breaks and tabs become spaces, so
 * text stays in its list item or cell; other control characters and
 * invalid bytes become U+FFFD.
 */
void kvet_markdown_write(FILE *fp, const char *s, size_t len);

/**
 * kvet_uri_write() - write a file path as a relative URI reference
 * (RFC 3986, section 4.2), as a JSON string literal with its quotes.
 * @fp: the stream.
 * @path: the path as the user gave it; NUL-terminated.
 *
 * Unreserved characters and '/' stay; every other byte is written as %XX,
 * so that spaces, '%', '#', '?' and ':' cannot change the URI's meaning.
 * Leading "./" segments are dropped. An absolute path becomes a file://
 * URI, since it is relative to nothing.
 */
void kvet_uri_write(FILE *fp, const char *path);

#endif
