package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.Compare.CompareOp;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.util.QueryEvaluationUtil;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.store.lexicon.InlineValues;

/**
 * Comparisons of two inline {@code xsd:date}s decided on their ids ({@link IdCondition}): without
 * timezone, every operator gives RDF4J's answer on the values (by day, across months, years and
 * before 1970); a zoned date on either side is left to RDF4J (UNKNOWN).
 */
class IdConditionDateTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final List<String> UNZONED = List.of("2008-06-20", "2008-06-21", "2008-07-01", "2007-12-31",
            "1969-12-31", "1970-01-01", "2008-06-20");

    private static IdCondition compile(String op, VarTable vars) throws Exception {
        Filter[] found = new Filter[1];
        new SPARQLParser().parseQuery("SELECT * WHERE { ?s ?p ?a . ?s ?q ?b FILTER(?a " + op + " ?b) }", null)
                .getTupleExpr().visit(new AbstractQueryModelVisitor<RuntimeException>() {
                    @Override
                    public void meet(Filter f) {
                        found[0] = f;
                    }
                });
        ValueExpr e = found[0].getCondition();
        IdCondition c = IdCondition.compile(e, vars, new MemoryQuadSource());
        assertNotNull(c, op);
        return c;
    }

    private static Literal date(String label) {
        return VF.createLiteral(label, XSD.DATE);
    }

    @Test
    void unzonedDatesCompareOnIdsAsRdf4jComparesTheirValues() throws Exception {
        for (CompareOp op : CompareOp.values()) {
            VarTable vars = new VarTable();
            IdCondition c = compile(op.getSymbol(), vars);
            for (String a : UNZONED) {
                for (String b : UNZONED) {
                    long[] row = new long[vars.size()];
                    row[vars.slot("a")] = InlineValues.encode(date(a));
                    row[vars.slot("b")] = InlineValues.encode(date(b));
                    boolean expected = QueryEvaluationUtil.compare(date(a), date(b), op, true);
                    assertEquals(expected ? IdCondition.TRUE : IdCondition.FALSE, c.eval(row), a + " " + op + " " + b);
                }
            }
        }
    }

    @Test
    void zonedDatesAreLeftToRdf4j() throws Exception {
        VarTable vars = new VarTable();
        IdCondition c = compile("<", vars);
        for (String[] pair : new String[][] { { "2008-06-20Z", "2008-06-21" }, { "2008-06-20", "2008-06-21+05:00" },
                { "2008-06-20-03:00", "2008-06-21Z" } }) {
            long[] row = new long[vars.size()];
            row[vars.slot("a")] = InlineValues.encode(date(pair[0]));
            row[vars.slot("b")] = InlineValues.encode(date(pair[1]));
            assertEquals(IdCondition.UNKNOWN, c.eval(row), pair[0] + " < " + pair[1]);
        }
    }
}
