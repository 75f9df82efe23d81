package dev.basalt.optimizer.plan;

import java.util.HashSet;
import java.util.Set;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.BindingSetAssignment;
import org.eclipse.rdf4j.query.algebra.Difference;
import org.eclipse.rdf4j.query.algebra.Distinct;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.ProjectionElem;
import org.eclipse.rdf4j.query.algebra.Reduced;
import org.eclipse.rdf4j.query.algebra.Slice;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Union;

/**
 * The variables an algebra subtree binds in every one of its solutions, which hash-join keys and
 * filter placement rely on. Same as RDF4J's {@code getAssuredBindingNames()} except for VALUES:
 * RDF4J counts every VALUES variable as assured, also one that a row leaves UNDEF; here a VALUES
 * variable is assured only when every row binds it, and the operators above it follow.
 * Stateless; any thread may call it.
 */
final class Scopes {
    private Scopes() {
    }

    static Set<String> assured(TupleExpr e) {
        if (e instanceof BindingSetAssignment bsa) {
            Set<String> out = new HashSet<>(bsa.getBindingNames());
            for (BindingSet bs : bsa.getBindingSets()) {
                out.removeIf(n -> bs.getValue(n) == null);
            }
            return out;
        }
        if (e instanceof Join j) {
            Set<String> out = new HashSet<>(assured(j.getLeftArg()));
            out.addAll(assured(j.getRightArg()));
            return out;
        }
        if (e instanceof Union u) {
            Set<String> out = new HashSet<>(assured(u.getLeftArg()));
            out.retainAll(assured(u.getRightArg()));
            return out;
        }
        if (e instanceof LeftJoin lj) {
            return assured(lj.getLeftArg());
        }
        if (e instanceof Difference d) {
            return assured(d.getLeftArg());
        }
        if (e instanceof Filter || e instanceof Extension || e instanceof Distinct || e instanceof Reduced
                || e instanceof Slice) {
            Set<String> out = assured(((org.eclipse.rdf4j.query.algebra.UnaryTupleOperator) e).getArg());
            out.retainAll(e.getAssuredBindingNames());
            return out;
        }
        if (e instanceof Projection p) {
            Set<String> inner = assured(p.getArg());
            Set<String> out = new HashSet<>();
            for (ProjectionElem pe : p.getProjectionElemList().getElements()) {
                if (inner.contains(pe.getName())) {
                    out.add(pe.getProjectionAlias().orElse(pe.getName()));
                }
            }
            return out;
        }
        return new HashSet<>(e.getAssuredBindingNames());
    }
}
