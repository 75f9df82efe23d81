package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.Not;
import org.eclipse.rdf4j.query.algebra.Or;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;

/** The three query rewrites, on parsed algebra: what they change and what they must leave alone. */
class RewritingStrategyFactoryTest {
    private static final String P = "PREFIX : <http://example.org/> ";

    private static TupleExpr parse(String query) {
        return new SPARQLParser().parseQuery(P + query, null).getTupleExpr();
    }

    private static <T extends QueryModelNode> List<T> find(TupleExpr expr, Class<T> type) {
        List<T> out = new ArrayList<>();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                if (type.isInstance(node)) {
                    out.add(type.cast(node));
                }
                super.meetNode(node);
            }
        });
        return out;
    }

    @Test
    void aRepeatedPatternIsDroppedOnceAndDistinctOnesStay() {
        TupleExpr expr = parse("SELECT * { ?s :p :a . ?s :q ?o . ?s :p :a . ?s :p :b }");
        RewritingStrategyFactory.dropDuplicatePatterns(expr);
        assertEquals(3, find(expr, StatementPattern.class).size());
    }

    @Test
    void aPatternRepeatedInAnotherGroupIsKept() {
        TupleExpr expr = parse("SELECT * { ?s :p :a . OPTIONAL { ?s :p :a . ?s :q ?o } }");
        RewritingStrategyFactory.dropDuplicatePatterns(expr);
        assertEquals(3, find(expr, StatementPattern.class).size());
    }

    @Test
    void aNegationOverAnOptionalVariableIsKeptAtItsFilter() {
        TupleExpr expr = parse("SELECT * { ?s :p ?v . OPTIONAL { ?s :q ?t } FILTER (?v > 3 && !bound(?t)) }");
        RewritingStrategyFactory.keepOptionalFiltersInPlace(expr);
        // ?v > 3 reads only the required part and may still be pushed; !bound(?t) is written c || c.
        List<Or> guarded = find(expr, Or.class);
        assertEquals(1, guarded.size());
        assertInstanceOf(Not.class, guarded.get(0).getLeftArg());
        assertEquals(guarded.get(0).getLeftArg(), guarded.get(0).getRightArg());
        assertInstanceOf(Compare.class, ((And) find(expr, Filter.class).get(0).getCondition()).getLeftArg());
    }

    @Test
    void aFilterWithoutOptionalIsUntouched() {
        TupleExpr expr = parse("SELECT * { ?s :p ?v FILTER (!bound(?v)) }");
        RewritingStrategyFactory.keepOptionalFiltersInPlace(expr);
        assertEquals(0, find(expr, Or.class).size());
    }

    @Test
    void anOptionalConditionOnItsOwnVariablesMovesOntoTheOptionalPart() {
        TupleExpr expr = parse("SELECT * { ?s :p ?v . OPTIONAL { ?o :of ?s ; :date ?d FILTER (?d > 5) } }");
        RewritingStrategyFactory.filterOptionalPartsFirst(expr);
        LeftJoin join = find(expr, LeftJoin.class).get(0);
        assertNull(join.getCondition());
        assertInstanceOf(Filter.class, join.getRightArg());
    }

    @Test
    void anOptionalConditionReadingAnOuterVariableStaysACondition() {
        // ?v is bound only by the required part: evaluated on the optional part alone it would be unbound.
        TupleExpr expr = parse("SELECT * { ?s :p ?v . OPTIONAL { ?o :of ?s ; :date ?d FILTER (?d > ?v) } }");
        RewritingStrategyFactory.filterOptionalPartsFirst(expr);
        LeftJoin join = find(expr, LeftJoin.class).get(0);
        assertNotNull(join.getCondition());
    }
}
