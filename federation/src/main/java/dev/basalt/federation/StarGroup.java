package dev.basalt.federation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.rdf4j.federated.algebra.VariableExpr;
import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.AbstractQueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryModelVisitor;
import org.eclipse.rdf4j.query.algebra.TupleExpr;

/**
 * A star: the triple patterns of one group graph pattern that share a subject (a variable or a
 * constant), with the FILTERs and OPTIONALs that read only that star, held as the body of one SPARQL
 * SELECT that a member answers on its own. Under subject-hash partitioning every statement of a
 * subject lives on the member that owns it, so a star's solutions on the whole data set are the
 * union of its solutions on each member: a star with a constant subject is sent to that subject's
 * owner only, one with a variable subject to every member ({@link StarEvaluator}).
 *
 * <p>To FedX's optimizers the star is a leaf with free variables ({@link VariableExpr}) and no
 * children: its patterns are not FedX statements, so FedX's source selection never asks members
 * about them and its join planner places the star as one join argument ({@link StarCostModel}).
 *
 * <p>Built by {@link StarPushdown} while it rewrites one query's tree (not thread-safe then);
 * afterwards only read, by any number of FedX's worker threads.
 */
final class StarGroup extends AbstractQueryModelNode implements TupleExpr, VariableExpr {
    private final String subjectVar;
    private final Value subjectValue;
    private String body;
    private final Set<String> variables = new LinkedHashSet<>();
    private final Set<String> assured = new LinkedHashSet<>();
    private final Map<String, String> sparqlNames;
    private int patterns;
    private volatile QueryInfo queryInfo;
    private int constantObjects;
    private boolean replicated;
    /** Required patterns with a constant predicate and a variable object: predicate IRI and the object's name. */
    private final List<String[]> objectLinks = new ArrayList<>();
    /** Rows each member needs to return ({@link MemberLimit}), or -1: the whole answer. */
    private long memberRows = -1;
    /** The ORDER BY the members sort by before they cut their answer, in SPARQL, or empty. */
    private String memberOrder = "";
    /**
     * In a plan kept for a query shape ({@link ShapePlanCache}): the body and member order with the shape's
     * sentinels as slots, which {@link #withConstants} fills; null otherwise.
     */
    private ShapePlanCache.StarText text;

    /**
     * @param subjectVar   the subject variable's name, or null when the subject is a constant
     * @param subjectValue the constant subject, or null when it is a variable
     */
    StarGroup(String subjectVar, Value subjectValue) {
        this.subjectVar = subjectVar;
        this.subjectValue = subjectValue;
        this.body = "";
        this.sparqlNames = new HashMap<>();
    }

    /**
     * This star with one query's constants in place of a shape plan's sentinels ({@link ShapePlanCache}): its
     * body and member order from {@code body} and {@code order}, its constant subject {@code subject} (null for
     * a variable subject); everything else (variables, route, cost) is the shape's and shared.
     */
    StarGroup withConstants(String body, String order, Value subject) {
        StarGroup copy = new StarGroup(subjectVar, subject, this);
        copy.body = body;
        copy.memberOrder = order;
        copy.text = null;
        return copy;
    }

    /** A copy of {@code of}'s state (its sets shared: never changed once the star is built) with another subject. */
    private StarGroup(String subjectVar, Value subjectValue, StarGroup of) {
        this.subjectVar = subjectVar;
        this.subjectValue = subjectValue;
        this.sparqlNames = of.sparqlNames;
        this.variables.addAll(of.variables);
        this.assured.addAll(of.assured);
        this.objectLinks.addAll(of.objectLinks);
        this.patterns = of.patterns;
        this.constantObjects = of.constantObjects;
        this.replicated = of.replicated;
        this.memberRows = of.memberRows;
        this.queryInfo = of.queryInfo;
    }

    /** The body and member order as slots of a shape plan ({@link ShapePlanCache}), or null. */
    ShapePlanCache.StarText text() {
        return text;
    }

    void setText(ShapePlanCache.StarText text) {
        this.text = text;
    }

    /** The stars of a rewritten query's algebra, in the order a visit meets them. */
    static List<StarGroup> in(TupleExpr plan) {
        List<StarGroup> found = new ArrayList<>();
        plan.visit(new org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meetOther(QueryModelNode node) {
                if (node instanceof StarGroup star) {
                    found.add(star);
                } else {
                    super.meetOther(node);
                }
            }
        });
        return found;
    }

    /** Adds one required triple pattern, written in SPARQL, with the variables it binds. */
    void addPattern(String triple, Set<String> binds, Map<String, String> names, boolean constantObject,
            boolean replicationPattern) {
        replicated |= replicationPattern;
        body = body.isEmpty() ? triple : body + " " + triple;
        variables.addAll(binds);
        assured.addAll(binds);
        sparqlNames.putAll(names);
        patterns++;
        if (constantObject) {
            constantObjects++;
        }
    }

    /** Records that a required pattern of the star binds {@code objectVar} through the constant {@code predicate}. */
    void addObjectLink(String predicate, String objectVar) {
        objectLinks.add(new String[] { predicate, objectVar });
    }

    /** Whether a required pattern binds {@code objectVar} through one of {@code predicates}. */
    boolean bindsThrough(String objectVar, Set<String> predicates) {
        for (String[] link : objectLinks) {
            if (link[1].equals(objectVar) && predicates.contains(link[0])) {
                return true;
            }
        }
        return false;
    }

    /**
     * Joins another star (only required patterns so far) into this one: its subject is a replicated
     * subject that this star binds, so every member holds it whole and answers the join. The star keeps
     * its own subject and route.
     */
    void join(StarGroup other) {
        body = body + " " + other.body;
        variables.addAll(other.variables);
        assured.addAll(other.assured);
        sparqlNames.putAll(other.sparqlNames);
        objectLinks.addAll(other.objectLinks);
        patterns += other.patterns;
        constantObjects += other.constantObjects;
    }

    /** Adds a FILTER over the whole star so far (group scope: it sees the star's OPTIONAL parts). */
    void addFilter(String condition, Set<String> reads, Map<String, String> names) {
        body = body + " FILTER (" + condition + ")";
        variables.addAll(reads);
        sparqlNames.putAll(names);
    }

    /**
     * Adds {@code OPTIONAL { other's body FILTER(conditions) }}. The star so far becomes a nested group,
     * so the filters it already has apply before the optional part is joined, as they did in the query.
     */
    void addOptional(StarGroup other, List<String> conditions, Set<String> reads, Map<String, String> names) {
        StringBuilder optional = new StringBuilder(other.body);
        for (String condition : conditions) {
            optional.append(" FILTER (").append(condition).append(')');
        }
        body = "{ " + body + " } OPTIONAL { " + optional + " }";
        variables.addAll(other.variables);
        variables.addAll(reads);
        sparqlNames.putAll(other.sparqlNames);
        sparqlNames.putAll(names);
    }

    /**
     * Lets each member cut its answer: the query needs at most {@code rows} of the star's solutions,
     * the first ones in {@code orderBy} (SPARQL ORDER BY conditions, empty: any rows), from each member
     * ({@link MemberLimit}). Set while the query is planned, before the star is evaluated.
     */
    void limitOnMembers(long rows, String orderBy) {
        this.memberRows = rows;
        this.memberOrder = orderBy;
    }

    /** Rows each member must return at least (when it has them), or -1: its whole answer. */
    long memberRows() {
        return memberRows;
    }

    /** The ORDER BY conditions of a cut answer ({@link #memberRows}), or empty. */
    String memberOrder() {
        return memberOrder;
    }

    /** The query this star belongs to (its time limit), set once the rewrite is done. */
    void setQueryInfo(QueryInfo info) {
        this.queryInfo = info;
    }

    QueryInfo queryInfo() {
        return queryInfo;
    }

    /** The group graph pattern members evaluate, without its enclosing braces. */
    String body() {
        return body;
    }

    /** The subject variable's name, or null for a constant subject. */
    String subjectVar() {
        return subjectVar;
    }

    /** The constant subject, or null for a variable subject. */
    Value subjectValue() {
        return subjectValue;
    }

    /** The SPARQL name under which a variable of this star is written (differs for names SPARQL cannot spell). */
    String sparqlName(String variable) {
        for (Map.Entry<String, String> e : sparqlNames.entrySet()) {
            if (e.getValue().equals(variable)) {
                return e.getKey();
            }
        }
        return variable;
    }

    /** The query variable a SPARQL name of this star stands for. */
    String variableOf(String sparqlName) {
        return sparqlNames.getOrDefault(sparqlName, sparqlName);
    }

    /** Variables that every solution of the required part binds. */
    Set<String> assured() {
        return Collections.unmodifiableSet(assured);
    }

    /**
     * Whether a required pattern of the star is a replication pattern ({@link ReplicatedVocabulary}): then
     * every subject it matches is replicated, every member holds all its statements, and one member
     * answers the star alone.
     */
    boolean replicated() {
        return replicated;
    }

    int patternCount() {
        return patterns;
    }

    int constantObjectCount() {
        return constantObjects;
    }

    @Override
    public Set<String> getBindingNames() {
        return Collections.unmodifiableSet(variables);
    }

    @Override
    public Set<String> getAssuredBindingNames() {
        return Collections.unmodifiableSet(assured);
    }

    @Override
    public List<String> getFreeVars() {
        return new ArrayList<>(variables);
    }

    @Override
    public <X extends Exception> void visit(QueryModelVisitor<X> visitor) throws X {
        visitor.meetOther(this);
    }

    @Override
    public <X extends Exception> void visitChildren(QueryModelVisitor<X> visitor) throws X {
        // A leaf: the patterns inside are SPARQL text, not FedX statements.
    }

    @Override
    public void replaceChildNode(QueryModelNode current, QueryModelNode replacement) {
        throw new IllegalArgumentException("a star has no child nodes: " + current);
    }

    @Override
    public StarGroup clone() {
        // Nothing is changed once the star is built, so the clone shares the built state.
        return (StarGroup) super.clone();
    }

    @Override
    public String getSignature() {
        return "StarGroup (" + (subjectVar != null ? "?" + subjectVar : "<" + subjectValue + ">") + ") { " + body + " }"
                + (memberRows < 0 ? "" : (memberOrder.isEmpty() ? "" : " ORDER BY " + memberOrder)
                        + " LIMIT " + memberRows + " per member");
    }

    @Override
    public boolean equals(Object other) {
        return this == other;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
