package dev.basalt.optimizer.plan;

import java.util.Map;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.RDF4J;
import org.eclipse.rdf4j.model.vocabulary.SESAME;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.store.lexicon.TermIds;

/**
 * Turns one statement pattern into a {@link PatternScan} over ids: constants looked up in the
 * source's dictionary (a term it does not know makes the scan match nothing), variables given the
 * slots of the compiler's {@link VarTable}, {@code GRAPH rdf4j:nil} (or {@code sesame:nil}) read
 * as the default graph, and the query's dataset applied ({@link DatasetGraphs}). The scan's label
 * is the pattern in short text, for plan output.
 *
 * <p>The map of constant ids is shared by the compilers of one query (a query names the same term
 * in many patterns, and the dictionary is asked once per term). Used by the one thread compiling
 * a query.
 */
final class PatternCompiler {
    private final QuadSource source;
    private final VarTable vars;
    private final DatasetGraphs datasetGraphs;
    private final Map<Value, Long> constantIds;

    PatternCompiler(QuadSource source, VarTable vars, DatasetGraphs datasetGraphs, Map<Value, Long> constantIds) {
        this.source = source;
        this.vars = vars;
        this.datasetGraphs = datasetGraphs;
        this.constantIds = constantIds;
    }

    PatternScan scan(StatementPattern sp) throws PlanCompiler.Unsupported {
        if (sp.getScope() == StatementPattern.Scope.DEFAULT_CONTEXTS && sp.getContextVar() != null) {
            throw new PlanCompiler.Unsupported(sp, "default-graph pattern restricted to a dataset's graphs");
        }
        DatasetGraphs.Restriction restriction = datasetGraphs.restrict(sp);
        Var[] positions = { sp.getSubjectVar(), sp.getPredicateVar(), sp.getObjectVar(), sp.getContextVar() };
        long[] constants = new long[4];
        int[] slots = { -1, -1, -1, -1 };
        boolean nothing = false;
        boolean namedOnly = sp.getScope() == StatementPattern.Scope.NAMED_CONTEXTS;
        StringBuilder label = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            Var v = positions[i];
            if (v == null) {
                continue;
            }
            if (i == 3) {
                label.append(" GRAPH ");
            } else if (i > 0) {
                label.append(' ');
            }
            if (v.hasValue()) {
                Value value = v.getValue();
                boolean nil = i == 3 && (RDF4J.NIL.equals(value) || SESAME.NIL.equals(value));
                // GRAPH rdf4j:nil (or sesame:nil) is RDF4J's name for the default graph
                long id = nil ? TermIds.DEFAULT_GRAPH : constantIds.computeIfAbsent(value, source::lookup);
                namedOnly &= !nil;
                constants[i] = id;
                nothing |= id == TermIds.NULL;
                if (!v.isConstant()) {
                    // a named variable given a value (query bindings, sameTerm rewriting) is still bound in results
                    slots[i] = vars.slot(v.getName());
                    label.append('?').append(v.getName()).append('=');
                }
                label.append(shortText(value));
            } else {
                slots[i] = vars.slot(v.getName());
                label.append('?').append(v.getName());
            }
        }
        if (restriction.contexts() != null) {
            label.append(" FROM ").append(restriction.contexts().length).append(" graph(s)");
        }
        return new PatternScan(constants, slots, namedOnly, nothing || restriction.nothing(),
                label.toString(), restriction.contexts());
    }

    private static String shortText(Value v) {
        if (v.isIRI()) {
            String s = v.stringValue();
            int cut = Math.max(s.lastIndexOf('#'), s.lastIndexOf('/'));
            return cut >= 0 && cut < s.length() - 1 ? ":" + s.substring(cut + 1) : "<" + s + ">";
        }
        return v.toString();
    }
}
