/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the escaping of the CI formats: XML text for libxml2
 * (JUnit), GitHub workflow commands, and file URIs (SARIF).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libxml/parser.h>
#include <libxml/xmlwriter.h>

#include "capture.h"
#include "report/escape.h"

#define FFFD "\xef\xbf\xbd"

static void check_xml(const char *in, size_t len, const char *want)
{
	char *out = kvet_xml_sanitize(in, len);

	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

#define XML(in, want) check_xml(in, sizeof(in) - 1, want)

static void test_xml_kept(void **state)
{
	XML("", "");
	XML("plain <&>\"' text", "plain <&>\"' text");
	XML("tab\tlf\ncr\r", "tab\tlf\ncr\r");
	XML("]]>", "]]>");	/* never CDATA: the writer escapes '>' */
	XML("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* C1 controls and U+FFFD itself are XML 1.0 characters */
	XML("\xc2\x85" FFFD, "\xc2\x85" FFFD);
	XML("\xed\x9f\xbf\xee\x80\x80", "\xed\x9f\xbf\xee\x80\x80");
}

static void test_xml_replaced(void **state)
{
	XML("a\x01" "b\x1b[31m\x7f", "a" FFFD "b" FFFD "[31m\x7f");
	XML("nul\0x", "nul" FFFD "x");
	XML("\xef\xbf\xbe\xef\xbf\xbf", FFFD FFFD);	/* U+FFFE, U+FFFF */
	XML("\xff\xc3", FFFD FFFD);			/* invalid, truncated */
	XML("\xed\xa0\x80", FFFD FFFD FFFD);		/* a surrogate */
	XML("\xc0\xaf", FFFD FFFD);			/* overlong '/' */
}

/* Whatever the bytes, a document written with the sanitised text parses. */
static void test_xml_writer_round_trip(void **state)
{
	static const char hostile[] = "x\x01\x02\x0b\x0c\x1f]]>&<\"\xff\xfe"
				      "\xef\xbf\xbf\r\n%";
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w;
	xmlDocPtr doc;
	char *clean = kvet_xml_sanitize(hostile, sizeof(hostile) - 1);

	assert_non_null(buf);
	assert_non_null(clean);
	w = xmlNewTextWriterMemory(buf, 0);
	assert_non_null(w);
	assert_true(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) >= 0);
	assert_true(xmlTextWriterStartElement(w, BAD_CAST "e") >= 0);
	assert_true(xmlTextWriterWriteAttribute(w, BAD_CAST "a",
						BAD_CAST clean) >= 0);
	assert_true(xmlTextWriterWriteString(w, BAD_CAST clean) >= 0);
	assert_true(xmlTextWriterEndDocument(w) >= 0);
	xmlFreeTextWriter(w);
	doc = xmlReadMemory((const char *)xmlBufferContent(buf),
			    xmlBufferLength(buf), "t.xml", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
				    XML_PARSE_NOWARNING);
	assert_non_null(doc);
	xmlFreeDoc(doc);
	xmlBufferFree(buf);
	free(clean);
}

static void capture_check(struct capture *cap, const char *want)
{
	capture_close(cap);
	assert_string_equal(cap->buf, want);
	free(cap->buf);
}

static void check_github(const char *in, size_t len, bool property,
			 const char *want)
{
	struct capture cap;

	capture_open(&cap);
	kvet_github_write(cap.fp, in, len, property);
	capture_check(&cap, want);
}

#define GH_MSG(in, want) check_github(in, sizeof(in) - 1, false, want)
#define GH_PROP(in, want) check_github(in, sizeof(in) - 1, true, want)

static void test_github_message(void **state)
{
	GH_MSG("plain", "plain");
	GH_MSG("100% done", "100%25 done");
	GH_MSG("%0A is not a newline", "%250A is not a newline");
	GH_MSG("two\nlines\r\n", "two%0Alines%0D%0A");
	/* ':' and ',' mean nothing after "::" */
	GH_MSG("a: b, c ::d", "a: b, c ::d");
	GH_MSG("tab\tkept", "tab\tkept");
	GH_MSG("esc\x1b[2J\x7f\xc2\x9b", "esc" FFFD "[2J" FFFD FFFD);
	GH_MSG("bad\xff utf8 \xc3\xa9", "bad" FFFD " utf8 \xc3\xa9");
	GH_MSG("nul\0x", "nul" FFFD "x");
}

static void test_github_property(void **state)
{
	GH_PROP("dir/a.yaml", "dir/a.yaml");
	GH_PROP("a,b:c.yaml", "a%2Cb%3Ac.yaml");
	GH_PROP("x=1%\n", "x=1%25%0A");
	GH_PROP("::error::", "%3A%3Aerror%3A%3A");
}

static void check_uri(const char *in, const char *want)
{
	struct capture cap;

	capture_open(&cap);
	kvet_uri_write(cap.fp, in);
	capture_check(&cap, want);
}

static void test_uri(void **state)
{
	check_uri("deploy.yaml", "\"deploy.yaml\"");
	check_uri("charts/web/a_b-c~d.yaml", "\"charts/web/a_b-c~d.yaml\"");
	check_uri("./a.yaml", "\"a.yaml\"");
	check_uri(".//./x/y.yaml", "\"x/y.yaml\"");
	check_uri("../up.yaml", "\"../up.yaml\"");
	check_uri("with space%#?.yaml", "\"with%20space%25%23%3F.yaml\"");
	check_uri("c:x.yaml", "\"c%3Ax.yaml\"");
	check_uri("q\"\\.yaml", "\"q%22%5C.yaml\"");
	check_uri("caf\xc3\xa9\xff.yaml", "\"caf%C3%A9%FF.yaml\"");
	check_uri("/abs/a b.yaml", "\"file:///abs/a%20b.yaml\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml_kept),
		cmocka_unit_test(test_xml_replaced),
		cmocka_unit_test(test_xml_writer_round_trip),
		cmocka_unit_test(test_github_message),
		cmocka_unit_test(test_github_property),
		cmocka_unit_test(test_uri),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	xmlCleanupParser();
	return rc;
}
