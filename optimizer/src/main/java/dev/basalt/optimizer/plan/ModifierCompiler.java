package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.AggregateOperator;
import org.eclipse.rdf4j.query.algebra.Avg;
import org.eclipse.rdf4j.query.algebra.Count;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.Group;
import org.eclipse.rdf4j.query.algebra.GroupConcat;
import org.eclipse.rdf4j.query.algebra.GroupElem;
import org.eclipse.rdf4j.query.algebra.Max;
import org.eclipse.rdf4j.query.algebra.Min;
import org.eclipse.rdf4j.query.algebra.Order;
import org.eclipse.rdf4j.query.algebra.OrderElem;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.Sample;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.Sum;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.UnaryValueOperator;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

import dev.basalt.optimizer.exec.GroupOp;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.optimizer.exec.RangeCountOp;
import dev.basalt.optimizer.exec.SortOp;
import dev.basalt.optimizer.plan.PlanCompiler.Unsupported;

/**
 * Compiles the solution modifiers ORDER BY and GROUP BY with aggregates for the
 * {@link PlanCompiler}. An Extension whose elements are all aggregates is compiled as its argument:
 * it only names the aggregates the Group below computes; an Extension with other expressions is
 * not handled here. COUNT(*) (or the
 * COUNT of a variable) of one statement pattern without GROUP BY becomes a {@link RangeCountOp}; a
 * COUNT(*) of several may become a {@link dev.basalt.optimizer.exec.CountJoinOp} ({@link CountJoinPlanner}).
 * ORDER BY keys and aggregate arguments that are not plain variables need {@link ValueFunctions}.
 * Not thread-safe: made and used by one query's plan compiler, in the compiling thread.
 */
final class ModifierCompiler {
    /** Compiles a subtree (the compiler's own {@code compile}). */
    interface Subtrees {
        Operator compile(TupleExpr e) throws Unsupported;
    }

    private static final String DEFAULT_SEPARATOR = " ";
    private final VarTable vars;
    private final ValueFunctions functions;
    private final boolean batches;

    private final CountJoinPlanner countJoins;

    /** {@code batches}: whether a GROUP BY may read its input in batches ({@link OrderingPolicy#batches()}). */
    ModifierCompiler(VarTable vars, ValueConditions values, boolean batches, CountJoinPlanner countJoins) {
        this.vars = vars;
        this.batches = batches;
        this.functions = values instanceof ValueFunctions f ? f : null;
        this.countJoins = countJoins;
    }

    /**
     * A Group, or an Extension of only aggregates over a subtree with a Group (RDF4J may stack two
     * such Extensions and push a HAVING filter below them).
     */
    static boolean isAggregation(TupleExpr e) {
        if (e instanceof Group) {
            return true;
        }
        if (e instanceof Extension x) {
            for (ExtensionElem el : x.getElements()) {
                if (!(el.getExpr() instanceof AggregateOperator)) {
                    return false;
                }
            }
            boolean[] group = { false };
            x.getArg().visit(new AbstractQueryModelVisitor<RuntimeException>() {
                @Override
                public void meet(Group g) {
                    group[0] = true;
                }
            });
            return group[0];
        }
        return false;
    }

    Operator group(TupleExpr e, Subtrees subtrees, boolean outerBound) throws Unsupported {
        if (e instanceof Extension x) {
            // its aggregates are the values the Group below binds: nothing to compute here
            return subtrees.compile(x.getArg());
        }
        Group g = (Group) e;
        Operator in = subtrees.compile(g.getArg());
        List<Aggregates.Spec> specs = new ArrayList<>();
        for (GroupElem ge : g.getGroupElements()) {
            specs.add(spec(ge, g));
        }
        int[] groupSlots = g.getGroupBindingNames().stream().mapToInt(vars::slot).toArray();
        Operator op;
        if (groupSlots.length == 0 && specs.size() == 1 && rangeCountable(specs.get(0), g, in)) {
            op = new RangeCountOp((PatternScan) in, specs.get(0).target());
        } else {
            boolean strict = functions != null && functions.strictComparison();
            String label = groupSlots.length == 0 ? "(all)" : g.getGroupBindingNames().stream()
                    .map(n -> "?" + n).reduce((a, b) -> a + " " + b).orElse("");
            Aggregates aggregates = new Aggregates(specs, strict);
            op = new GroupOp(in, groupSlots, aggregates, label, batches);
            Aggregates.Spec only = specs.size() == 1 ? specs.get(0) : null;
            if (groupSlots.length == 0 && only != null && only.kind() == Aggregates.Kind.COUNT_ALL && !only.distinct()) {
                Operator counted = countJoins.plan(g.getArg(), in, op, only.target(), outerBound);
                if (counted != null) {
                    return counted;
                }
            }
            JoinedAggregates joined = groupSlots.length == 1 ? JoinedAggregates.of(specs, aggregates.describe()) : null;
            if (joined != null) {
                op.setEstimate(Math.max(1, in.estimate() / 2));
                Operator grouped = countJoins.planGroup(g.getArg(), in, op, groupSlots[0], label, joined, outerBound);
                if (grouped != null) {
                    return grouped;
                }
            }
        }
        op.setEstimate(groupSlots.length == 0 ? 1 : Math.max(1, in.estimate() / 2));
        return op;
    }

    /** COUNT(*) or COUNT(?v) of a pattern binding ?v, with a variable and no repeated variable. */
    private static boolean rangeCountable(Aggregates.Spec spec, Group g, Operator in) {
        if (!(in instanceof PatternScan scan) || !(g.getArg() instanceof StatementPattern) || spec.distinct()) {
            return false;
        }
        if (spec.kind() != Aggregates.Kind.COUNT_ALL && spec.kind() != Aggregates.Kind.COUNT) {
            return false;
        }
        Set<Integer> seen = new LinkedHashSet<>();
        for (int s : scan.slots()) {
            if (s >= 0 && !seen.add(s)) {
                return false;
            }
        }
        if (seen.isEmpty()) {
            return false;
        }
        if (spec.kind() == Aggregates.Kind.COUNT) {
            return spec.arg().isVariable() && seen.contains(spec.arg().slots()[0]);
        }
        return true;
    }

    private Aggregates.Spec spec(GroupElem ge, Group g) throws Unsupported {
        AggregateOperator op = ge.getOperator();
        int target = vars.slot(ge.getName());
        String text = "?" + ge.getName() + "=" + op.getClass().getSimpleName().toUpperCase()
                + (op.isDistinct() ? "(DISTINCT " : "(");
        ValueExpr argExpr = op instanceof UnaryValueOperator u ? u.getArg() : null;
        text += (argExpr == null ? "*" : ExprText.of(argExpr)) + ")";
        Aggregates.Kind kind;
        String separator = null;
        if (op instanceof Count) {
            kind = argExpr == null ? Aggregates.Kind.COUNT_ALL : Aggregates.Kind.COUNT;
        } else if (op instanceof Sum) {
            kind = Aggregates.Kind.SUM;
        } else if (op instanceof Avg) {
            kind = Aggregates.Kind.AVG;
        } else if (op instanceof Min) {
            kind = Aggregates.Kind.MIN;
        } else if (op instanceof Max) {
            kind = Aggregates.Kind.MAX;
        } else if (op instanceof Sample) {
            kind = Aggregates.Kind.SAMPLE;
        } else if (op instanceof GroupConcat gc) {
            kind = Aggregates.Kind.GROUP_CONCAT;
            separator = separator(gc, g);
        } else {
            throw new Unsupported(g, "aggregate " + op.getClass().getSimpleName() + " is not compiled by Basalt yet");
        }
        if (argExpr == null && kind != Aggregates.Kind.COUNT_ALL) {
            throw new Unsupported(g, "aggregate " + kind + " without an argument");
        }
        AggregateArg arg = argExpr == null ? null : arg(argExpr, g);
        return new Aggregates.Spec(kind, arg, op.isDistinct(), separator, target, text);
    }

    private static String separator(GroupConcat gc, Group g) throws Unsupported {
        ValueExpr sep = gc.getSeparator();
        if (sep == null) {
            return DEFAULT_SEPARATOR;
        }
        if (sep instanceof ValueConstant c) {
            return c.getValue().stringValue();
        }
        if (sep instanceof Var v && v.hasValue()) {
            return v.getValue().stringValue();
        }
        throw new Unsupported(g, "GROUP_CONCAT separator that is not a constant");
    }

    private AggregateArg arg(ValueExpr e, QueryModelNode owner) throws Unsupported {
        if (e instanceof Var v) {
            return v.hasValue() ? AggregateArg.constant(v.getValue()) : AggregateArg.variable(vars.slot(v.getName()));
        }
        if (e instanceof ValueConstant c) {
            return AggregateArg.constant(c.getValue());
        }
        Expression x = expression(e, owner);
        String derived = DerivedExpressions.variable(e);
        if (derived != null && x.slots.length == 1 && x.slots[0] >= 0) {
            return AggregateArg.derived(x.function, derived, x.slots[0], DerivedExpressions.key(e));
        }
        return AggregateArg.expression(x.function, x.names, x.slots);
    }

    Operator sort(Operator input, Order order, long keep) throws Unsupported {
        List<SortKeys.Key> keys = new ArrayList<>();
        for (OrderElem oe : order.getElements()) {
            ValueExpr e = oe.getExpr();
            if (e instanceof Var v && !v.hasValue()) {
                keys.add(new SortKeys.Key(vars.find(v.getName()), null, null, null, oe.isAscending(), "?" + v.getName(),
                        false));
            } else if (!(e instanceof Var) && !(e instanceof ValueConstant)) {
                Expression x = expression(e, order);
                keys.add(new SortKeys.Key(-1, x.function, x.names, x.slots, oe.isAscending(), ExprText.of(e),
                        PureExpressions.test(e)));
            }
            // a constant key orders nothing
        }
        List<Integer> tie = new ArrayList<>();
        for (String name : new TreeSet<>(order.getArg().getBindingNames())) {
            int slot = vars.find(name);
            if (slot >= 0) {
                tie.add(slot);
            }
        }
        SortOp op = new SortOp(input, new SortKeys(keys, tie.stream().mapToInt(Integer::intValue).toArray()), keep);
        op.setEstimate(keep >= 0 ? Math.min(keep, input.estimate()) : input.estimate());
        return op;
    }

    private record Expression(Function<BindingSet, Value> function, String[] names, int[] slots) {
    }

    private Expression expression(ValueExpr e, QueryModelNode owner) throws Unsupported {
        if (functions == null) {
            throw new Unsupported(owner, "expression evaluation is not available to this compiler");
        }
        Set<String> names = new LinkedHashSet<>();
        boolean[] subquery = { false };
        e.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Var v) {
                if (!v.hasValue()) {
                    names.add(v.getName());
                }
            }

            @Override
            protected void meetNode(QueryModelNode node) {
                if (node instanceof TupleExpr) {
                    subquery[0] = true;
                } else {
                    super.meetNode(node);
                }
            }
        });
        if (subquery[0]) {
            throw new Unsupported(owner, "expression with a subquery (EXISTS / NOT EXISTS)");
        }
        String[] nameArray = names.toArray(new String[0]);
        int[] slots = new int[nameArray.length];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = vars.find(nameArray[i]);
        }
        return new Expression(functions.evaluator(e), nameArray, slots);
    }
}
