package dev.basalt.optimizer.plan;

import java.util.Set;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.ZeroLengthPath;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PathOp;
import dev.basalt.optimizer.exec.PatternScan;

/**
 * Compiles RDF4J's property path nodes ({@link ArbitraryLengthPath}, {@link ZeroLengthPath}) into a
 * {@link PathOp}. The path's step expression (a pattern, sequence, alternative, inverse or negated
 * set) is copied with its start and end variables renamed to fresh step variables and compiled
 * three times: with the step start bound (forward search), with the step end bound (backward) and
 * with nothing bound (all start nodes). Not compiled: a path inside {@code GRAPH ?g} with a graph
 * variable (RDF4J reports each pair once with the graph of the first match, an order-dependent
 * answer), and a path whose start and end are the same variable.
 * Not thread-safe: made and used by one query's plan compiler, in the compiling thread. The counter
 * naming step variables is static and read under a lock.
 */
final class PathCompiler {
    private static int counter;
    private final PlanCompiler compiler;
    private final VarTable vars;

    PathCompiler(PlanCompiler compiler, VarTable vars) {
        this.compiler = compiler;
        this.vars = vars;
    }

    Operator compile(TupleExpr e) throws PlanCompiler.Unsupported {
        Var start;
        Var end;
        Var context;
        StatementPattern.Scope scope;
        TupleExpr step = null;
        boolean zero;
        if (e instanceof ArbitraryLengthPath p) {
            start = p.getSubjectVar();
            end = p.getObjectVar();
            context = p.getContextVar();
            scope = p.getScope();
            step = p.getPathExpression();
            zero = p.getMinLength() == 0;
            if (p.getMinLength() > 1) {
                throw new PlanCompiler.Unsupported(e, "path of minimum length " + p.getMinLength());
            }
        } else {
            ZeroLengthPath z = (ZeroLengthPath) e;
            start = z.getSubjectVar();
            end = z.getObjectVar();
            context = z.getContextVar();
            scope = z.getScope();
            zero = true;
        }
        if (context != null && !context.isConstant()) {
            throw new PlanCompiler.Unsupported(e, "property path inside GRAPH with a graph variable");
        }
        if (!start.hasValue() && !end.hasValue() && start.getName().equals(end.getName())) {
            throw new PlanCompiler.Unsupported(e, "property path from a variable to itself");
        }
        int id = next();
        String stepStartName = "-path-start-" + id;
        String stepEndName = "-path-end-" + id;
        int startSlot = start.isConstant() ? -1 : vars.slot(start.getName());
        int endSlot = end.isConstant() ? -1 : vars.slot(end.getName());
        Operator forward = null;
        Operator backward = null;
        Operator all = null;
        int stepStart = vars.slot(stepStartName);
        int stepEnd = vars.slot(stepEndName);
        if (step != null) {
            TupleExpr renamed = rename(step, start, stepStartName, end, stepEndName);
            forward = compiler.compileBound(renamed.clone(), Set.of(stepStart));
            backward = compiler.compileBound(renamed.clone(), Set.of(stepEnd));
            all = compiler.compileBound(renamed.clone(), Set.of());
        }
        PatternScan terms = null;
        if (zero) {
            Var ctx = context == null ? null : context.clone();
            StatementPattern everything = new StatementPattern(
                    context == null ? StatementPattern.Scope.DEFAULT_CONTEXTS : StatementPattern.Scope.NAMED_CONTEXTS,
                    new Var("-path-s-" + id), new Var("-path-p-" + id), new Var("-path-o-" + id), ctx);
            terms = compiler.scanOf(everything);
        }
        String label = text(start) + (step == null ? " (zero length) " : zero ? " * " : " + ") + text(end);
        PathOp op = new PathOp(start.getValue(), startSlot, end.getValue(), endSlot, forward, backward, all,
                stepStart, stepEnd, zero, terms, label);
        double stepRows = all == null ? 0 : Math.max(1, all.estimate());
        op.setEstimate(start.hasValue() || end.hasValue() ? 10 : stepRows * 4 + (terms == null ? 0 : Math.max(0, terms.estimate())));
        return op;
    }

    private static synchronized int next() {
        return ++counter;
    }

    private static String text(Var v) {
        Value value = v.getValue();
        return value != null ? value.toString() : "?" + v.getName();
    }

    /** A copy of {@code step} with the path's start and end variables renamed (constants become variables). */
    private static TupleExpr rename(TupleExpr step, Var start, String startName, Var end, String endName) {
        TupleExpr copy = step.clone();
        copy.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Var v) {
                if (v.equals(start)) {
                    v.replaceWith(new Var(startName));
                } else if (v.equals(end)) {
                    v.replaceWith(new Var(endName));
                }
            }
        });
        return copy;
    }
}
