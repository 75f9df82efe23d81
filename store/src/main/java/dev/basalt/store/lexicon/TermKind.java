package dev.basalt.store.lexicon;

/**
 * What the kind nibble of a term id says: reserved, a dictionary kind (the term is in ID2TERM) or
 * an inline type (the term is in the id). Codes are defined in {@link TermIds}.
 * Immutable; safe to share between threads.
 */
public enum TermKind {
    RESERVED(TermIds.KIND_RESERVED, false, false),
    BLANK_NODE(TermIds.KIND_BLANK_NODE, true, false),
    IRI(TermIds.KIND_IRI, true, false),
    LITERAL(TermIds.KIND_LITERAL, true, false),
    STRING(TermIds.KIND_STRING, false, true),
    LANG_STRING(TermIds.KIND_LANG_STRING, false, true),
    BOOLEAN(TermIds.KIND_BOOLEAN, false, true),
    INTEGER(TermIds.KIND_INTEGER, false, true),
    DECIMAL(TermIds.KIND_DECIMAL, false, true),
    FLOAT(TermIds.KIND_FLOAT, false, true),
    DOUBLE(TermIds.KIND_DOUBLE, false, true),
    DATE_TIME(TermIds.KIND_DATE_TIME, false, true),
    DATE(TermIds.KIND_DATE, false, true),
    UNASSIGNED_D(0xD, false, false),
    UNASSIGNED_E(0xE, false, false),
    TRIPLE(TermIds.KIND_TRIPLE, true, false);

    private static final TermKind[] BY_CODE = new TermKind[16];

    static {
        for (TermKind k : values()) {
            BY_CODE[k.code] = k;
        }
    }

    private final int code;
    private final boolean dictionary;
    private final boolean inline;

    TermKind(int code, boolean dictionary, boolean inline) {
        this.code = code;
        this.dictionary = dictionary;
        this.inline = inline;
    }

    public static TermKind ofCode(int code) {
        return BY_CODE[code & 0xF];
    }

    public int code() {
        return code;
    }

    /** True for kinds whose ids are allocated by {@link TermIdAllocator} and resolved via ID2TERM. */
    public boolean isDictionary() {
        return dictionary;
    }

    /** True for kinds whose ids hold the value itself. */
    public boolean isInline() {
        return inline;
    }

    /** True for kinds that denote literals, inline or not. */
    public boolean isLiteral() {
        return inline || this == LITERAL;
    }
}
