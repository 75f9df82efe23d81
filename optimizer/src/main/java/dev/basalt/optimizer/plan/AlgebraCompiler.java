package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.AggregateOperator;
import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.BNodeGenerator;
import org.eclipse.rdf4j.query.algebra.BindingSetAssignment;
import org.eclipse.rdf4j.query.algebra.Difference;
import org.eclipse.rdf4j.query.algebra.Exists;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.MultiProjection;
import org.eclipse.rdf4j.query.algebra.Not;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.ProjectionElem;
import org.eclipse.rdf4j.query.algebra.ProjectionElemList;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ExtendOp;
import dev.basalt.optimizer.exec.MinusOp;
import dev.basalt.optimizer.exec.MultiProjectOp;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.RowBinding;
import dev.basalt.optimizer.exec.RowFilter;
import dev.basalt.optimizer.exec.SubqueryOp;
import dev.basalt.optimizer.exec.ValuesOp;

/**
 * The plan compiler's part for BIND and SELECT expressions (Extension), VALUES
 * (BindingSetAssignment), MINUS (Difference), subqueries (a Projection, possibly under
 * DISTINCT/REDUCED/LIMIT, inside a compiled subtree), CONSTRUCT templates (MultiProjection) and
 * FILTERs with EXISTS / NOT EXISTS as top-level conjuncts. It works on the {@link PlanCompiler}'s
 * variable table and calls back into it for the operands.
 *
 * <p>Not compiled here, with the reason thrown as {@link PlanCompiler.Unsupported}: an Extension
 * with aggregates (they belong to GROUP BY), an Extension with a subquery in an expression
 * (EXISTS inside BIND), a value expression when no {@link ValueFunctions} are available, and
 * EXISTS anywhere but as a conjunct of a FILTER's condition.
 * Not thread-safe: made and used by one query's plan compiler, in the compiling thread.
 */
final class AlgebraCompiler {
    /** Slot names of a CONSTRUCT template's output columns; a space keeps them apart from query variables. */
    private static final String OUTPUT_PREFIX = " out:";
    private final PlanCompiler compiler;
    private final VarTable vars;
    private final QuadSource source;
    private final ValueConditions values;
    private final ValueFunctions functions;

    AlgebraCompiler(PlanCompiler compiler, VarTable vars, QuadSource source, ValueConditions values,
            ValueFunctions functions) {
        this.compiler = compiler;
        this.vars = vars;
        this.source = source;
        this.values = values;
        this.functions = functions;
    }

    /** The operator for a node handled here, or null when the node is none of them. */
    Operator tryCompile(TupleExpr e) throws PlanCompiler.Unsupported {
        if (e instanceof Extension ext) {
            return extension(ext);
        }
        if (e instanceof BindingSetAssignment bsa) {
            return values(bsa);
        }
        if (e instanceof Difference d) {
            return minus(d);
        }
        if (Subqueries.isSubquery(e)) {
            return subquery(e);
        }
        return null;
    }

    private Operator extension(Extension ext) throws PlanCompiler.Unsupported {
        // the argument first: an Extension over a GROUP falls back as the Group, not as itself
        Operator input = compiler.compile(ext.getArg());
        List<RowBinding> bindings = new ArrayList<>();
        List<String> earlier = new ArrayList<>();
        for (ExtensionElem elem : ext.getElements()) {
            ValueExpr expr = elem.getExpr();
            if (contains(expr, AggregateOperator.class)) {
                throw new PlanCompiler.Unsupported(ext, "Extension with an aggregate (belongs to GROUP BY)");
            }
            if (contains(expr, TupleExpr.class)) {
                throw new PlanCompiler.Unsupported(ext, "Extension with a subquery (EXISTS) in an expression");
            }
            String name = elem.getName();
            if (expr instanceof Var v && !v.hasValue() && v.getName().equals(name)) {
                continue;
            }
            int target = vars.slot(name);
            if (expr instanceof ValueConstant c) {
                bindings.add(ExtensionBinding.constant(target, name, c.getValue()));
            } else if (expr instanceof Var v && v.hasValue()) {
                bindings.add(ExtensionBinding.constant(target, name, v.getValue()));
            } else if (expr instanceof Var v) {
                bindings.add(ExtensionBinding.copy(target, name, vars.slot(v.getName()), v.getName()));
            } else if (functions == null) {
                throw new PlanCompiler.Unsupported(ext, "no value functions to evaluate " + ExprText.of(expr));
            } else {
                List<String> names = new ArrayList<>(PlanCompiler.conditionVars(expr));
                if (contains(expr, BNodeGenerator.class)) {
                    // BNODE(str) is one blank node per solution: RDF4J labels it with a hash of the
                    // whole row it is evaluated on (the argument's names and the earlier elements')
                    addNew(names, ext.getArg().getBindingNames());
                    addNew(names, earlier);
                }
                int[] slots = new int[names.size()];
                for (int i = 0; i < slots.length; i++) {
                    slots[i] = vars.slot(names.get(i));
                }
                bindings.add(ExtensionBinding.expression(target, name, expr, functions, slots,
                        names.toArray(new String[0])));
            }
            earlier.add(name);
        }
        Operator op = bindings.isEmpty() ? input : new ExtendOp(input, bindings);
        op.setEstimate(input.estimate());
        return op;
    }

    private static void addNew(List<String> names, Collection<String> more) {
        for (String n : more) {
            if (!names.contains(n)) {
                names.add(n);
            }
        }
    }

    private Operator values(BindingSetAssignment bsa) {
        List<String> names = new ArrayList<>(bsa.getBindingNames());
        int[] slots = new int[names.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = vars.slot(names.get(i));
        }
        List<Value[]> rows = new ArrayList<>();
        for (BindingSet bs : bsa.getBindingSets()) {
            Value[] row = new Value[names.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = bs.getValue(names.get(i));
            }
            rows.add(row);
        }
        Operator op = new ValuesOp(slots, rows.toArray(new Value[0][]));
        op.setEstimate(rows.size());
        return op;
    }

    private Operator minus(Difference d) throws PlanCompiler.Unsupported {
        Operator left = compiler.compile(d.getLeftArg());
        Operator right = compiler.compile(d.getRightArg());
        Set<Integer> keys = slots(Scopes.assured(d.getLeftArg()));
        keys.retainAll(slots(Scopes.assured(d.getRightArg())));
        Set<Integer> shared = slots(d.getLeftArg().getBindingNames());
        shared.retainAll(slots(d.getRightArg().getBindingNames()));
        Operator op = new MinusOp(left, right, PlanCompiler.toArray(keys), PlanCompiler.toArray(shared));
        op.setEstimate(left.estimate());
        return op;
    }

    private Operator subquery(TupleExpr e) throws PlanCompiler.Unsupported {
        LeftJoin optional = Subqueries.optionalOnEmptyGroup(e);
        if (optional != null) {
            throw new PlanCompiler.Unsupported(optional, "OPTIONAL with a subquery on the empty group: RDF4J "
                    + "returns no row when the subquery is empty (its compliance suite expects it)");
        }
        PlanCompiler inner = compiler.nested();
        CompiledPlan plan = inner.compileScoped(e);
        int[] innerSlots = plan.outputSlots();
        int[] outerSlots = new int[innerSlots.length];
        for (int i = 0; i < innerSlots.length; i++) {
            outerSlots[i] = vars.slot(plan.outputNames().get(i));
        }
        Operator op = new SubqueryOp(plan.root(), plan.vars().size(), innerSlots, outerSlots);
        op.setEstimate(plan.root().estimate());
        return op;
    }

    /**
     * A CONSTRUCT template over {@code input}: fills {@code names} and {@code slots} with the output
     * columns (subject, predicate, object, context) and their slots.
     */
    Operator multiProjection(MultiProjection mp, Operator input, List<String> names, List<Integer> slots) {
        Map<String, Integer> columns = new LinkedHashMap<>();
        for (ProjectionElemList list : mp.getProjections()) {
            for (ProjectionElem pe : list.getElements()) {
                String target = pe.getProjectionAlias().orElse(pe.getName());
                columns.computeIfAbsent(target, n -> vars.slot(OUTPUT_PREFIX + n));
            }
        }
        List<String> order = new ArrayList<>(columns.keySet());
        int[][] sources = new int[mp.getProjections().size()][order.size()];
        for (int k = 0; k < sources.length; k++) {
            Arrays.fill(sources[k], -1);
            for (ProjectionElem pe : mp.getProjections().get(k).getElements()) {
                String target = pe.getProjectionAlias().orElse(pe.getName());
                sources[k][order.indexOf(target)] = vars.slot(pe.getName());
            }
        }
        int[] targets = order.stream().mapToInt(columns::get).toArray();
        names.addAll(order);
        for (int t : targets) {
            slots.add(t);
        }
        Operator op = new MultiProjectOp(input, targets, sources);
        op.setEstimate(input.estimate() * sources.length);
        return op;
    }

    /**
     * A FILTER or OPTIONAL condition containing a subquery: compiled when every subquery is a
     * top-level conjunct {@code EXISTS} or {@code NOT EXISTS}; the other conjuncts are ordinary
     * conditions. {@code bound} are the slots the rows always bind, for ordering the EXISTS plans.
     */
    RowFilter existsCondition(ValueExpr expr, QueryModelNode owner, Set<Integer> bound)
            throws PlanCompiler.Unsupported {
        List<ValueExpr> conjuncts = new ArrayList<>();
        split(expr, conjuncts);
        List<RowFilter> conditions = new ArrayList<>();
        List<ExistsFilter.Exists> exists = new ArrayList<>();
        for (ValueExpr c : conjuncts) {
            boolean negated = c instanceof Not n && n.getArg() instanceof Exists;
            ValueExpr inner = negated ? ((Not) c).getArg() : c;
            if (inner instanceof Exists ex) {
                exists.add(new ExistsFilter.Exists(correlated(ex.getSubQuery(), bound), negated));
            } else if (contains(c, TupleExpr.class)) {
                throw new PlanCompiler.Unsupported(owner,
                        "condition with EXISTS / NOT EXISTS other than as a top-level conjunct");
            } else {
                conditions.add(compiler.condition(c, owner));
            }
        }
        return new ExistsFilter(conditions, exists);
    }

    private Operator correlated(TupleExpr e, Set<Integer> bound) throws PlanCompiler.Unsupported {
        if (e instanceof StatementPattern || e instanceof Join || e instanceof Filter) {
            return compiler.compileGroup(e, bound);
        }
        return compiler.compile(e);
    }

    private static void split(ValueExpr e, List<ValueExpr> out) {
        if (e instanceof And a) {
            split(a.getLeftArg(), out);
            split(a.getRightArg(), out);
        } else {
            out.add(e);
        }
    }

    private static boolean contains(ValueExpr expr, Class<?> type) {
        boolean[] found = { false };
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                if (type.isInstance(node)) {
                    found[0] = true;
                } else if (!(node instanceof TupleExpr)) {
                    node.visitChildren(this);
                }
            }
        });
        return found[0] || type.isInstance(expr);
    }

    private Set<Integer> slots(Set<String> names) {
        Set<Integer> out = new HashSet<>();
        for (String n : names) {
            int s = vars.find(n);
            if (s >= 0) {
                out.add(s);
            }
        }
        return out;
    }
}
