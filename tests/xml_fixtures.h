/*
 * xml_fixtures.h - the tests' small XML reader, for what attn writes as XML
 * (the JUnit report, the SVG pictures): well-formedness as a strict reader
 * sees it (matching tags, one root, only the five entities, no '<' in an
 * attribute, no control byte, no "--" in a comment), and every element in
 * document order with its attributes and its character data, for a test to
 * read back; xmllint checks the file too when it is installed.
 */
#ifndef ATTN_XML_FIXTURES_H
#define ATTN_XML_FIXTURES_H

#define XML_ATTRS_MAX 12

typedef struct {
    char name[16];
    char attr[XML_ATTRS_MAX][2][96];    /* name, value (entities read; cut to fit) */
    int n_attr;
    char text[512];     /* the character data directly inside, entities read */
} XEl;

/* A document read. Ownership: el is the Xml's; xml_free releases it. */
typedef struct {
    XEl *el;
    int n, cap;
    const char *p;
    char err[160];
    char open[64][16];  /* the elements open, for their closing tags */
    int open_el[64];    /* and where they are in el */
    int depth;
} Xml;

/* Read text into x: 1 when it is well-formed, else 0 with why in x->err. */
int xml_read(Xml *x, const char *text);
void xml_free(Xml *x);
/* Element e's attribute name, or NULL. */
const char *xml_attr(const XEl *e, const char *name);
/* How many elements are named name. */
int xml_count(const Xml *x, const char *name);
/* The file at path read into x, or the test fails: well-formed for the
 * reader here and for xmllint when it is installed. */
void xml_expect_file(const char *path, Xml *x);

#endif
