package dev.basalt.store.lexicon;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.spatial.SpatialIndex;

/**
 * Which dictionary terms the spatial index holds: literals of datatype {@code geo:wktLiteral},
 * recognized by their {@link TermKeys} key (the known-datatype tag and code), so a term given by
 * its key alone (a byte-level parser's) is indexed like any other.
 *
 * <p>Stateless; any thread may call it.
 */
final class SpatialTerms {
    static final String WKT_LITERAL = "http://www.opengis.net/ont/geosparql#wktLiteral";
    private static final int WKT_CODE = KnownDatatypes.code(WKT_LITERAL);

    private SpatialTerms() {
    }

    /** The WKT text of a full term key, or null if the term is not a {@code geo:wktLiteral}. */
    static String wkt(byte[] fullKey) {
        if (fullKey.length < 2 || fullKey[0] != TermKeys.KNOWN_DATATYPE || (fullKey[1] & 0xFF) != WKT_CODE) {
            return null;
        }
        return Utf8.decode(fullKey, 2, fullKey.length);
    }

    /** Adds every geometry term of a dictionary's ID2TERM tree to {@code index}; returns how many. */
    static long collect(LexiconView view, BTree idToTerm, SpatialIndex index) {
        long n = 0;
        if (idToTerm == null) {
            return 0;
        }
        BTreeCursor c = idToTerm.cursor(null, null);
        while (c.next()) {
            long id = Lexicon.getLong(c.key());
            String wkt = wkt(view.fullKey(id, c.value()));
            if (wkt != null) {
                index.add(id, wkt);
                n++;
            }
        }
        return n;
    }
}
