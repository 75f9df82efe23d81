package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.evaluation.util.ValueComparator;
import org.junit.jupiter.api.Test;

import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.TermIds;

/**
 * Wherever {@link IdOrder} decides on ids, its answer has the sign RDF4J's ValueComparator gives
 * the decoded terms; and it does decide for the common same-kind cases (so the fast path exists).
 */
class IdOrderTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @Test
    void decisionsOnIdsAgreeWithRdf4jsComparator() {
        Random r = new Random(3);
        List<Value> values = new ArrayList<>();
        String[] texts = { "", "a", "ab", "b", "a\u0000", "\u00e9", "z\u00ff", "\uffff", "\ud83d\ude00", "\ue000x",
                "\ud800", "Zz", "0" };
        for (String t : texts) {
            values.add(VF.createLiteral(t));
            values.add(VF.createLiteral(t, "en"));
            values.add(VF.createLiteral(t, "de"));
        }
        for (int i = 0; i < 60; i++) {
            values.add(VF.createLiteral(r.nextInt(200) - 100));
            values.add(VF.createLiteral(String.valueOf(r.nextInt(200) - 100), XSD.INTEGER));
            values.add(VF.createLiteral(String.valueOf(r.nextInt(100)), XSD.UNSIGNED_BYTE));
            values.add(VF.createLiteral(String.valueOf((r.nextInt(400) - 200) / 8.0), XSD.DECIMAL));
            values.add(VF.createLiteral((r.nextInt(400) - 200) / 16.0));
            values.add(VF.createLiteral((float) ((r.nextInt(400) - 200) / 16.0)));
            values.add(VF.createLiteral("2024-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(9) + "T1" + r.nextInt(9)
                    + ":00:00" + (r.nextBoolean() ? "Z" : r.nextBoolean() ? "+02:00" : ""), XSD.DATETIME));
            values.add(VF.createLiteral("2024-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(9)
                    + (r.nextBoolean() ? "Z" : ""), XSD.DATE));
        }
        values.add(VF.createLiteral(true));
        values.add(VF.createLiteral(false));
        values.add(VF.createLiteral(Double.NaN));
        values.add(VF.createLiteral(-0.0d));
        values.add(VF.createLiteral(0.0d));
        values.add(VF.createLiteral(Double.POSITIVE_INFINITY));
        ValueComparator cmp = new ValueComparator();
        int decided = 0;
        for (Value a : values) {
            long ia = InlineValues.encode(a);
            if (ia == TermIds.NULL) {
                continue;
            }
            for (Value b : values) {
                long ib = InlineValues.encode(b);
                if (ib == TermIds.NULL) {
                    continue;
                }
                int c = IdOrder.compare(ia, ib);
                if (c != IdOrder.UNKNOWN) {
                    decided++;
                    assertEquals(Integer.signum(cmp.compare(a, b)), Integer.signum(c), a + " vs " + b);
                }
            }
        }
        assertTrue(decided > values.size() * values.size() / 10, "ids decided only " + decided + " comparisons");
        assertEquals(-1, IdOrder.compare(TermIds.NULL, InlineValues.encode(VF.createLiteral(1))));
    }
}
