package dev.basalt.federation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.Binding;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.DescribeOperator;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;

/**
 * DESCRIBE answered by the front without FedX: the WHERE clause is evaluated like any star-only
 * query ({@link DirectEvaluation}), and the resources it binds are described with one request per
 * member, all at once: the statements with a described IRI as subject and those with it as object,
 * as one store's DESCRIBE gives them; of each member's rows only those whose subject it owns are
 * kept (a replicated subject is whole on every member, so its copies would repeat). One store's
 * DESCRIBE also describes the blank nodes it reaches; blank nodes are local to a member, so when a
 * described resource or a statement found has a blank node, {@link #describe} gives up (null) and
 * FedX answers the query as before.
 *
 * <p>Stateless; runs on the calling request thread, star requests on the federation's pool.
 */
final class DirectDescribe {
    private DirectDescribe() {
    }

    /** The WHERE part of a planned DESCRIBE (its plan without the describe operator), or null. */
    static TupleExpr where(TupleExpr plan) {
        TupleExpr top = plan instanceof QueryRoot root ? root.getArg() : plan;
        return top instanceof DescribeOperator describe ? describe.getArg() : null;
    }

    /**
     * The statements that describe what {@code where} binds, or null when blank nodes are involved (the
     * caller then lets FedX answer).
     */
    static List<Statement> describe(TupleExpr where, StarEvaluator stars, FrontQuery front) {
        Set<IRI> described = new LinkedHashSet<>();
        try (CloseableIteration<BindingSet> rows = DirectEvaluation.evaluate(where, stars, front)) {
            while (rows.hasNext()) {
                for (Binding binding : rows.next()) {
                    Value value = binding.getValue();
                    if (value instanceof BNode) {
                        return null;
                    }
                    if (value instanceof IRI iri) {
                        described.add(iri);
                    }
                }
            }
        }
        List<Statement> out = new ArrayList<>();
        if (described.isEmpty()) {
            return out;
        }
        StringBuilder query = new StringBuilder("SELECT ?s ?p ?o WHERE { VALUES ?v {");
        for (IRI iri : described) {
            query.append(' ').append(org.eclipse.rdf4j.rio.helpers.NTriplesUtil.toNTriplesString(iri));
        }
        query.append(" } { ?v ?p ?o BIND(?v AS ?s) } UNION { ?s ?p ?v BIND(?v AS ?o) } }");
        Set<Statement> seen = new LinkedHashSet<>();
        for (BindingSet row : stars.everyMemberOwned(query.toString(), "s", front)) {
            Value s = row.getValue("s");
            Value p = row.getValue("p");
            Value o = row.getValue("o");
            if (s instanceof BNode || o instanceof BNode) {
                return null;
            }
            if (s instanceof Resource subject && p instanceof IRI predicate && o != null) {
                seen.add(SimpleValueFactory.getInstance().createStatement(subject, predicate, o));
            }
        }
        out.addAll(seen);
        return out;
    }
}
