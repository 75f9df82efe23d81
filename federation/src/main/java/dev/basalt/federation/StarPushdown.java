package dev.basalt.federation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.Service;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.ZeroLengthPath;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

/**
 * Rewrites a query's algebra before FedX plans it: in every group graph pattern, the triple patterns
 * that share a subject become one {@link StarGroup}, and the FILTERs and OPTIONALs that read only
 * that star move into it. FedX then plans joins between stars only.
 *
 * <p>Each move keeps the query's answer:
 * <ul>
 * <li>Patterns of the default graph with the same subject term form a star; a pattern inside
 * {@code GRAPH}, or one with a blank node or RDF-star constant, stays a FedX statement.</li>
 * <li>A FILTER conjunct moves into a star X of the filtered join when it reads only X's variables
 * and every variable it shares with the join's other arguments is one X always binds (so the other
 * arguments cannot change what it sees). Over an OPTIONAL it moves into the left side when that
 * side always binds what it reads.</li>
 * <li>{@code OPTIONAL { S FILTER(c) }}, where S is one star with the same subject as a star X of
 * the left side, moves into X when every variable that S and c share with the left side's other
 * arguments is one X always binds, and c reads only X's and S's variables: then
 * {@code (X ⋈ Y) ⟕ S = (X ⟕ S) ⋈ Y}.</li>
 * <li>Anything the star cannot carry (BIND, subqueries, expressions {@link SparqlText} cannot
 * write) stays where it is, for FedX.</li>
 * </ul>
 * Stateless; the rewrite changes only the tree it is given, which belongs to the one thread planning that query,
 * so any number of threads may rewrite their own queries at once.
 */
final class StarPushdown {
    private StarPushdown() {
    }

    /**
     * Whether the rewrite decides on a value beyond its kind and its equality with other constants: an IRI
     * that is {@code rdf:type}, a replicated predicate or class, or a predicate of {@code replicatedRange}
     * (predicates whose objects are all replicated subjects). A plan kept per query shape
     * ({@link ShapePlanCache}) is kept per value of each such constant. One set lookup per value: the set of
     * those IRIs is gathered again whenever {@code replicatedRange} gives another set (the front learned the
     * ranges again). Thread-safe.
     */
    static java.util.function.Predicate<Value> decidesOn(ReplicatedVocabulary replication,
            java.util.function.Supplier<Set<String>> replicatedRange) {
        record Held(Set<String> range, Set<String> iris) {
        }
        java.util.concurrent.atomic.AtomicReference<Held> held = new java.util.concurrent.atomic.AtomicReference<>();
        return value -> {
            if (!value.isIRI()) {
                return false;
            }
            Set<String> range = replicatedRange.get();
            Held now = held.get();
            if (now == null || now.range() != range) {
                Set<String> iris = new HashSet<>(replication.predicates());
                iris.addAll(replication.classes());
                iris.addAll(range);
                iris.add(ReplicatedVocabulary.TYPE);
                now = new Held(range, iris);
                held.set(now);
            }
            return now.iris().contains(value.stringValue());
        };
    }

    /** Rewrites {@code root} in place; {@code replication} tells which stars one member answers alone. */
    static void rewrite(TupleExpr root, ReplicatedVocabulary replication) {
        rewrite(root, replication, Set.of());
    }

    /**
     * Rewrites {@code root} in place; a star whose subject variable another star of its group binds through
     * one of {@code replicatedRange} (predicates whose objects are all replicated subjects,
     * {@link ReplicatedRanges}) is joined into that star.
     */
    static void rewrite(TupleExpr root, ReplicatedVocabulary replication, Set<String> replicatedRange) {
        List<TupleExpr> order = new ArrayList<>();
        root.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                super.meetNode(node);
                if (node instanceof TupleExpr tuple) {
                    order.add(tuple); // children before parents
                }
            }
        });
        for (TupleExpr node : order) {
            if (node.getParentNode() == null && node != root || insideOpaque(node)) {
                continue; // replaced by an earlier step, or part of a path or a SERVICE
            }
            if (node instanceof Join join && !(join.getParentNode() instanceof Join)) {
                formStars(join, replication, replicatedRange);
            } else if (node instanceof StatementPattern pattern && !(pattern.getParentNode() instanceof Join)) {
                formStars(pattern, replication, replicatedRange);
            } else if (node instanceof LeftJoin leftJoin) {
                absorbOptional(leftJoin);
            } else if (node instanceof Filter filter) {
                absorbFilter(filter);
            }
        }
    }

    /** Whether the node belongs to a property path or a SERVICE, whose patterns are not the query's own. */
    private static boolean insideOpaque(QueryModelNode node) {
        for (QueryModelNode up = node.getParentNode(); up != null; up = up.getParentNode()) {
            if (up instanceof ArbitraryLengthPath || up instanceof ZeroLengthPath || up instanceof Service) {
                return true;
            }
        }
        return false;
    }

    /** Replaces the statement patterns of a join tree (or a lone pattern) by one star per subject. */
    private static void formStars(TupleExpr group, ReplicatedVocabulary replication, Set<String> replicatedRange) {
        List<TupleExpr> leaves = new ArrayList<>();
        leavesOf(group, leaves);
        Map<Object, StarGroup> stars = new LinkedHashMap<>();
        List<TupleExpr> others = new ArrayList<>();
        for (TupleExpr leaf : leaves) {
            if (!(leaf instanceof StatementPattern pattern) || !addToStar(pattern, stars, replication)) {
                others.add(leaf);
            }
        }
        if (stars.isEmpty()) {
            return;
        }
        joinReplicatedStars(stars, replicatedRange);
        List<TupleExpr> args = new ArrayList<>(stars.values());
        args.addAll(others);
        TupleExpr joined = args.get(0);
        for (int i = 1; i < args.size(); i++) {
            joined = new Join(joined, args.get(i));
        }
        group.replaceWith(joined);
    }

    /** Joins each star over replicated subjects into the star that binds its subject, until none is left. */
    private static void joinReplicatedStars(Map<Object, StarGroup> stars, Set<String> replicatedRange) {
        if (replicatedRange.isEmpty()) {
            return;
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (StarGroup satellite : stars.values()) {
                if (satellite.subjectVar() == null) {
                    continue;
                }
                for (StarGroup star : stars.values()) {
                    if (star != satellite && star.bindsThrough(satellite.subjectVar(), replicatedRange)) {
                        star.join(satellite);
                        stars.values().remove(satellite);
                        changed = true;
                        break;
                    }
                }
                if (changed) {
                    break;
                }
            }
        }
    }

    private static boolean addToStar(StatementPattern pattern, Map<Object, StarGroup> stars,
            ReplicatedVocabulary replication) {
        if (pattern.getContextVar() != null || pattern.getScope() != StatementPattern.Scope.DEFAULT_CONTEXTS) {
            return false;
        }
        Var subject = pattern.getSubjectVar();
        Value constant = subject.hasValue() ? subject.getValue() : null;
        if (constant != null && !constant.isIRI()) {
            return false;
        }
        SparqlText text = new SparqlText();
        String triple;
        try {
            triple = text.pattern(pattern);
        } catch (SparqlText.Unwritable e) {
            return false;
        }
        Object key = constant != null ? constant : "?" + subject.getName();
        StarGroup star = stars.computeIfAbsent(key, k -> new StarGroup(constant == null ? subject.getName() : null, constant));
        Value predicate = pattern.getPredicateVar().getValue();
        Value object = pattern.getObjectVar().getValue();
        boolean replicationPattern = predicate != null && predicate.isIRI() && replication.replicates(
                predicate.stringValue(), object != null && object.isIRI() ? object.stringValue() : null);
        star.addPattern(triple, text.variables(), text.names(), object != null, replicationPattern);
        if (predicate != null && predicate.isIRI() && object == null) {
            star.addObjectLink(predicate.stringValue(), pattern.getObjectVar().getName());
        }
        return true;
    }

    /** Moves {@code OPTIONAL { S FILTER(c) }} into the left side's star with S's subject, when that keeps the answer. */
    private static void absorbOptional(LeftJoin leftJoin) {
        List<ValueExpr> conditions = new ArrayList<>();
        if (leftJoin.getCondition() != null) {
            conditions.add(leftJoin.getCondition());
        }
        TupleExpr right = leftJoin.getRightArg();
        while (right instanceof Filter filter) {
            conditions.add(filter.getCondition());
            right = filter.getArg();
        }
        if (!(right instanceof StarGroup optional)) {
            return;
        }
        List<TupleExpr> leaves = new ArrayList<>();
        leavesOf(leftJoin.getLeftArg(), leaves);
        StarGroup star = sameSubject(leaves, optional);
        if (star == null) {
            return;
        }
        SparqlText text = new SparqlText();
        List<String> written = new ArrayList<>();
        try {
            for (ValueExpr condition : conditions) {
                written.add(text.expression(condition));
            }
        } catch (SparqlText.Unwritable e) {
            return;
        }
        Set<String> reads = new HashSet<>(text.variables());
        Set<String> starAndOptional = new HashSet<>(star.getBindingNames());
        starAndOptional.addAll(optional.getBindingNames());
        if (!starAndOptional.containsAll(reads)) {
            return;
        }
        Set<String> optionalVars = new HashSet<>(optional.getBindingNames());
        optionalVars.addAll(reads);
        if (!sharedOnlyThrough(star, optionalVars, leaves)) {
            return;
        }
        star.addOptional(optional, written, reads, text.names());
        leftJoin.replaceWith(leftJoin.getLeftArg());
    }

    /** Moves the conjuncts of a FILTER that read only one star into that star. */
    private static void absorbFilter(Filter filter) {
        List<ValueExpr> conjuncts = new ArrayList<>();
        RewritingStrategyFactory.splitConjunction(filter.getCondition(), conjuncts);
        List<ValueExpr> kept = new ArrayList<>();
        for (ValueExpr conjunct : conjuncts) {
            if (!pushInto(filter.getArg(), conjunct)) {
                kept.add(conjunct);
            }
        }
        if (kept.isEmpty()) {
            filter.replaceWith(filter.getArg());
        } else if (kept.size() < conjuncts.size()) {
            ValueExpr condition = kept.get(kept.size() - 1);
            for (int i = kept.size() - 2; i >= 0; i--) {
                condition = new And(kept.get(i), condition);
            }
            filter.setCondition(condition);
        }
    }

    private static boolean pushInto(TupleExpr arg, ValueExpr conjunct) {
        if (arg instanceof LeftJoin leftJoin) {
            Set<String> reads = RewritingStrategyFactory.variables(conjunct);
            return leftJoin.getLeftArg().getAssuredBindingNames().containsAll(reads)
                    && pushInto(leftJoin.getLeftArg(), conjunct);
        }
        if (!(arg instanceof Join) && !(arg instanceof StarGroup)) {
            return false;
        }
        SparqlText text = new SparqlText();
        String written;
        try {
            written = text.expression(conjunct);
        } catch (SparqlText.Unwritable e) {
            return false;
        }
        Set<String> reads = text.variables();
        List<TupleExpr> leaves = new ArrayList<>();
        leavesOf(arg, leaves);
        for (TupleExpr leaf : leaves) {
            if (leaf instanceof StarGroup star && star.getBindingNames().containsAll(reads)
                    && sharedOnlyThrough(star, reads, leaves)) {
                star.addFilter(written, reads, text.names());
                return true;
            }
        }
        return false;
    }

    /** Whether every variable of {@code vars} that another leaf also uses is one {@code star} always binds. */
    private static boolean sharedOnlyThrough(StarGroup star, Set<String> vars, List<TupleExpr> leaves) {
        for (TupleExpr leaf : leaves) {
            if (leaf == star) {
                continue;
            }
            Set<String> shared = new HashSet<>(leaf.getBindingNames());
            shared.addAll(RewritingStrategyFactory.variables(leaf));
            shared.retainAll(vars);
            if (!star.assured().containsAll(shared)) {
                return false;
            }
        }
        return true;
    }

    private static StarGroup sameSubject(List<TupleExpr> leaves, StarGroup optional) {
        for (TupleExpr leaf : leaves) {
            if (leaf instanceof StarGroup star
                    && (star.subjectVar() != null ? star.subjectVar().equals(optional.subjectVar())
                            : star.subjectValue().equals(optional.subjectValue()))) {
                return star;
            }
        }
        return null;
    }

    private static void leavesOf(TupleExpr node, List<TupleExpr> out) {
        if (node instanceof Join join) {
            leavesOf(join.getLeftArg(), out);
            leavesOf(join.getRightArg(), out);
        } else {
            out.add(node);
        }
    }
}
