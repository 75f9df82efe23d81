package dev.basalt.sail.query;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.algebra.BindingSetAssignment;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.ProjectionElem;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;
import org.eclipse.rdf4j.query.algebra.helpers.TupleExprs;
import org.eclipse.rdf4j.query.parser.ParsedBooleanQuery;
import org.eclipse.rdf4j.query.parser.ParsedDescribeQuery;
import org.eclipse.rdf4j.query.parser.ParsedGraphQuery;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.ParsedTupleQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;

import dev.basalt.optimizer.plan.TreeText;
import dev.basalt.optimizer.rdf4j.PreparedAlgebra;
import dev.basalt.optimizer.rdf4j.QueryHints;



/**
 * The constant-slot model of one query shape ({@link QueryShape}): the shape's query parsed with a unique sentinel
 * in each constant's place (an IRI, a string or a number of the same kind), whose sentinels' places in the algebra
 * are where a later query's constants go. RDF4J's parser costs 20-100 µs a query; an instantiation costs a lexer
 * pass and a clone.
 *
 * <p>How a template is made safe ({@link #make}): the first query of a shape is parsed as it is (that is its
 * answer), and once more with the sentinels. The template is kept only if instantiating it with the first
 * query's own constants gives exactly the algebra the parser gave for that query (same tree, same variable
 * names, same values, same dataset and namespaces); otherwise the shape is not cacheable and its queries are
 * always parsed. A constant the parser does not keep as a value where this class looks for it (in a variable, a
 * value constant or a VALUES row) therefore disables templates for that shape instead of leaving a sentinel in a
 * query. The same slots serve an optimized tree of the template ({@link #over}, {@link OptimizedTemplates}).
 *
 * <p>Thread-safe: immutable once made; instantiations work on clones.
 */
final class QueryTemplate {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String IRI_SENTINEL = "urn:x-basalt-slot:";
    private static final String STRING_SENTINEL = "x-basalt-slot-";
    private static final long NUMBER_SENTINEL = 736_401_900_000_000L;

    private final ParsedQuery parsed;
    /** The slot of each sentinel, by {@link #sentinelText}. */
    private final Map<String, Integer> sentinels;
    /** Whether projections or extensions name constants (CONSTRUCT templates): they are renamed too. */
    private final boolean namesConstants;
    /** Whether a query of the shape may have a {@link PendingTree} ({@link #pending}). */
    private final boolean pendable;
    /**
     * The sentinel value objects of the parsed tree and their slots; a clone of the tree holds
     * the same objects, so an instantiation finds its sites by identity.
     */
    private final Map<Value, Integer> sites = new IdentityHashMap<>();

    /** @param sentinels slot of each sentinel, by {@link #sentinelText} */
    private QueryTemplate(ParsedQuery parsed, Map<String, Integer> sentinels) {
        this.parsed = parsed;
        this.sentinels = sentinels;
        boolean[] namesConstants = new boolean[1];
        parsed.getTupleExpr().visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(true) {
            private void site(Value v) {
                Integer slot = v == null ? null : sentinels.get(sentinelText(v));
                if (slot != null) {
                    sites.put(v, slot);
                }
            }

            @Override
            public void meet(Var node) {
                site(node.getValue());
            }

            @Override
            public void meet(ValueConstant node) {
                site(node.getValue());
            }

            @Override
            public void meet(BindingSetAssignment node) {
                for (BindingSet row : node.getBindingSets()) {
                    row.forEach(b -> site(b.getValue()));
                }
            }

            @Override
            public void meet(ProjectionElem node) {
                namesConstants[0] |= node.getName().startsWith("_const_");
            }

            @Override
            public void meet(ExtensionElem node) {
                namesConstants[0] |= node.getName().startsWith("_const_");
                super.meet(node);
            }
        });
        this.namesConstants = namesConstants[0];
        // a graph query's result names are the statement's roles whatever its template's constants are named
        this.pendable = (parsed instanceof ParsedTupleQuery && !this.namesConstants || parsed instanceof ParsedGraphQuery)
                && !holdsHint(parsed.getTupleExpr());
    }

    /** Whether the tree has a Basalt query hint that is not one of the slots (which {@link #pending} checks per query). */
    private static boolean holdsHint(TupleExpr tree) {
        try {
            return !QueryHints.strip(tree.clone()).none();
        } catch (RuntimeException e) {
            return true; // a malformed hint: the query fails as it would without a template
        }
    }

    /** The same slots over another tree with this template's sentinels in it (an optimized form of it). */
    QueryTemplate over(TupleExpr tree) {
        return new QueryTemplate(new ParsedTupleQuery(parsed.getSourceString(), tree), sentinels);
    }

    /** The tree with sentinels; a caller changes only a clone of it. */
    TupleExpr tree() {
        return parsed.getTupleExpr();
    }

    /** The slot of a value that is one of this template's sentinels (compared by text), or -1. */
    int sentinelSlot(Value v) {
        Integer slot = v == null ? null : sentinels.get(sentinelText(v));
        return slot == null ? -1 : slot;
    }

    /** The slots that have a site in the tree. */
    Set<Integer> slotsWithSites() {
        return new HashSet<>(sites.values());
    }

    /** How a sentinel is written: an IRI in brackets, a literal by its label. */
    private static String sentinelText(Value v) {
        return v instanceof IRI iri ? "<" + iri.stringValue() + ">" : v instanceof Literal l ? l.getLabel() : "";
    }

    /** The slot of a sentinel object of this template's tree (or a clone of it), or -1. */
    int siteSlot(Value value) {
        Integer slot = sites.get(value);
        return slot == null ? -1 : slot;
    }

    /** The template of {@code shape}, or null if instantiating it does not reproduce {@code expected}. */
    static QueryTemplate make(String query, String baseUri, QueryShape shape, ParsedQuery expected) {
        StringBuilder sentinelQuery = new StringBuilder(query.length() + 16 * shape.slots().size());
        Map<String, Integer> sentinels = new HashMap<>();
        int at = 0;
        List<QueryShape.Slot> slots = shape.slots();
        for (int i = 0; i < slots.size(); i++) {
            QueryShape.Slot slot = slots.get(i);
            sentinelQuery.append(query, at, slot.start());
            at = slot.end();
            String number = Long.toString(NUMBER_SENTINEL + i);
            String sentinel = switch (slot.kind()) {
                case IRI, PREFIXED_NAME -> IRI_SENTINEL + i;
                case STRING -> STRING_SENTINEL + i;
                case INTEGER -> number;
                case DECIMAL -> number + ".5";
                case DOUBLE -> number + "e0";
            };
            boolean iri = slot.kind() == QueryShape.Kind.IRI || slot.kind() == QueryShape.Kind.PREFIXED_NAME;
            sentinelQuery.append(iri ? "<" + sentinel + ">" : sentinel);
            // a literal's language or datatype follows in the query: it is matched by label
            sentinels.put(iri ? "<" + sentinel + ">" : sentinel, i);
        }
        sentinelQuery.append(query, at, query.length());
        ParsedQuery parsed;
        try {
            parsed = QueryParserUtil.parseQuery(QueryLanguage.SPARQL, sentinelQuery.toString(), baseUri);
        } catch (MalformedQueryException e) {
            return null;
        }
        QueryTemplate template = new QueryTemplate(parsed, sentinels);
        try {
            ParsedQuery own = template.instantiate(query, shape);
            return sameQuery(own, expected) ? template : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * {@code shape}'s constants by the sentinels of this template's tree (or a clone of it), each made when first
     * asked for: what a kept plan reads per query, without the names and tree edits of a {@link Substitution}.
     */
    QueryShape.Constants constants(QueryShape shape) {
        return shape.constants(sites());
    }

    /**
     * The slot of each sentinel value object of the parsed tree, by identity (read-only): what {@link
     * QueryShape#constants} finds a query's constants by, in this tree or a clone of it.
     */
    Map<Value, Integer> sites() {
        return Collections.unmodifiableMap(sites);
    }

    /** The optimized tree of a template made by {@link #over}, with {@code query}'s constants, from {@code copy}'s copy. */
    QueryRoot instantiate(String query, QueryShape shape, UnaryOperator<QueryRoot> copy) {
        QueryRoot expr = copy.apply((QueryRoot) parsed.getTupleExpr());
        new Substitution(this, shape).apply(expr);
        return expr;
    }

    /** The parsed tree of a query of this template's shape: a clone of the template with the query's constants. */
    TupleExpr instantiateTree(QueryShape shape) {
        TupleExpr expr = parsed.getTupleExpr().clone();
        new Substitution(this, shape).apply(expr);
        return expr;
    }

    /**
     * The parsed form of {@code query} with a {@link PendingTree} for its tree, made only if read: a SELECT, a
     * CONSTRUCT or a DESCRIBE (a graph query's kept plan gives the rows its statements are made of); null when the
     * shape is an ASK, a SELECT whose projection or extensions name constants, or the template or the query may hold
     * a Basalt query hint (which the store reads from the tree).
     */
    ParsedQuery pending(String query, QueryShape shape, QueryFront front, PreparedAlgebra prepared) {
        if (!pendable || mayHoldHint(shape)) {
            return null;
        }
        PendingTree tree = new PendingTree(this, shape, front, prepared);
        ParsedQuery result;
        if (parsed instanceof ParsedDescribeQuery describe) {
            result = new ParsedDescribeQuery(query, tree, describe.getQueryNamespaces());
        } else if (parsed instanceof ParsedGraphQuery graph) {
            result = new ParsedGraphQuery(query, tree, graph.getQueryNamespaces());
        } else {
            result = new ParsedTupleQuery(query, tree);
        }
        result.setDataset(parsed.getDataset());
        return result;
    }

    /**
     * Whether {@code shape}'s query may run its shape's kept plan without a tree at all ({@link QueryFront#select}):
     * it may have a {@link PendingTree} ({@link #pending}) and names no dataset (FROM, FROM NAMED).
     */
    boolean treeless(QueryShape shape) {
        return treelessShape() && !mayHoldHint(shape);
    }

    /**
     * Whether the queries of this template's shape may skip their tree unless a constant is a hint ({@link #treeless}):
     * SELECTs only, whose rows are the result.
     */
    boolean treelessShape() {
        return pendable && parsed instanceof ParsedTupleQuery && parsed.getDataset() == null;
    }

    /**
     * Whether the CONSTRUCT or DESCRIBE queries of this template's shape may skip their tree unless a constant is a
     * hint, as {@link #treelessShape} for SELECTs ({@link QueryFront#answer}).
     */
    boolean treelessGraphShape() {
        return pendable && parsed instanceof ParsedGraphQuery && parsed.getDataset() == null;
    }

    /** The prologue's prefixes of a graph query's shape (part of the shape, so every query's), else none. */
    Map<String, String> namespaces() {
        return parsed instanceof ParsedGraphQuery graph
                ? Collections.unmodifiableMap(new java.util.LinkedHashMap<>(graph.getQueryNamespaces()))
                : Map.of();
    }

    /** Whether one of the query's IRI constants is in the hints' namespace (a hint pattern's predicate). */
    static boolean mayHoldHint(QueryShape shape) {
        return shape.mayNameIriIn(QueryHints.NAMESPACE);
    }

    ParsedQuery instantiate(String query, QueryShape shape) {
        TupleExpr expr = instantiateTree(shape);
        ParsedQuery result;
        if (parsed instanceof ParsedTupleQuery) {
            result = new ParsedTupleQuery(query, expr);
        } else if (parsed instanceof ParsedBooleanQuery) {
            result = new ParsedBooleanQuery(query, expr);
        } else if (parsed instanceof ParsedDescribeQuery describe) {
            result = new ParsedDescribeQuery(query, expr, describe.getQueryNamespaces());
        } else if (parsed instanceof ParsedGraphQuery graph) {
            result = new ParsedGraphQuery(query, expr, graph.getQueryNamespaces());
        } else {
            throw new IllegalStateException("unexpected query type " + parsed.getClass());
        }
        result.setDataset(parsed.getDataset());
        return result;
    }

    /** Puts one query's constants where a template has its sentinels. */
    private static final class Substitution extends AbstractSimpleQueryModelVisitor<RuntimeException> {
        private final QueryTemplate template;
        private final QueryShape shape;
        private final Value[] values;
        private final String[] names;
        private final Map<String, String> renamed = new HashMap<>();
        private final List<Var[]> varReplacements = new ArrayList<>();

        Substitution(QueryTemplate template, QueryShape shape) {
            super(true);
            this.template = template;
            this.shape = shape;
            this.values = new Value[shape.slots().size()];
            this.names = new String[values.length];
        }

        void apply(TupleExpr expr) {
            expr.visit(this);
            for (Var[] r : varReplacements) {
                r[0].getParentNode().replaceChildNode(r[0], r[1]);
            }
            if (!renamed.isEmpty()) {
                expr.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(true) {
                    @Override
                    public void meet(ProjectionElem node) {
                        node.setName(renamed.getOrDefault(node.getName(), node.getName()));
                        super.meet(node);
                    }

                    @Override
                    public void meet(ExtensionElem node) {
                        node.setName(renamed.getOrDefault(node.getName(), node.getName()));
                        super.meet(node);
                    }
                });
            }
        }

        /** The query's value for the sentinel {@code sentinel}, or null if it is none. */
        private Value valueFor(Value sentinel) {
            int slot = template.siteSlot(sentinel);
            if (slot < 0) {
                return null;
            }
            if (values[slot] != null) {
                return values[slot]; // a slot's sentinel is one value, so its replacement is too
            }
            Value v = shape.value(shape.slots().get(slot), sentinel);
            values[slot] = v;
            names[slot] = TupleExprs.getConstVarName(v);
            if (template.namesConstants) {
                // CONSTRUCT templates name constants by their values in projections and extensions
                renamed.put(TupleExprs.getConstVarName(sentinel), names[slot]);
            }
            return v;
        }

        @Override
        public void meet(Var node) {
            if (node.hasValue()) {
                Value v = valueFor(node.getValue());
                if (v != null) {
                    String name = names[template.siteSlot(node.getValue())];
                    if (template.namesConstants) {
                        renamed.put(node.getName(), name);
                    }
                    varReplacements.add(new Var[] { node, new Var(name, v, node.isAnonymous(), node.isConstant()) });
                }
            }
        }

        @Override
        public void meet(ValueConstant node) {
            Value v = valueFor(node.getValue());
            if (v != null) {
                node.setValue(v);
            }
        }

        @Override
        public void meet(BindingSetAssignment node) {
            List<BindingSet> rows = new ArrayList<>();
            boolean changed = false;
            for (BindingSet row : node.getBindingSets()) {
                QueryBindingSet copy = new QueryBindingSet(row.size());
                for (var binding : row) {
                    Value v = valueFor(binding.getValue());
                    changed |= v != null;
                    copy.addBinding(binding.getName(), v != null ? v : binding.getValue());
                }
                rows.add(copy);
            }
            if (changed) {
                node.setBindingSets(rows);
            }
        }
    }

    /**
     * Whether two parses are the same query: the same printed algebra up to the names the parser
     * makes up for anonymous variables (blank nodes, collections, paths), which differ between
     * any two parses of one query; the same dataset and namespaces.
     */
    static boolean sameQuery(ParsedQuery a, ParsedQuery b) {
        if (a.getClass() != b.getClass() || !canonical(a.getTupleExpr()).equals(canonical(b.getTupleExpr()))) {
            return false;
        }
        if (a.getDataset() == null ? b.getDataset() != null : !a.getDataset().equals(b.getDataset())) {
            return false;
        }
        return !(a instanceof ParsedGraphQuery ga) || ga.getQueryNamespaces().equals(((ParsedGraphQuery) b).getQueryNamespaces());
    }

    private static final Pattern ANONYMOUS = Pattern.compile("_anon_\\w+");

    /**
     * The printed algebra ({@link TreeText#keyed}: linear in the tree's size, so a deep chain of {@code ||} does not
     * print to gigabytes) with anonymous variables numbered in order of appearance, and the
     * elements of an extension that binds only constants sorted by name: the parser orders those
     * by their names' hashes (CONSTRUCT templates), which depend on the constants, and binds a
     * constant used in several places once, while a template binds it once per place: binding
     * constants is the same in any order and any number of times; likewise the elements of
     * projections other than the outermost (the parser's helper projections, e.g. of property
     * paths, order theirs by hash; the outermost one gives the result's column order and is
     * compared as it is). An instantiated template keeps its own order.
     */
    static String canonical(TupleExpr expr) {
        TupleExpr copy = expr.clone();
        copy.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(true) {
            private boolean outermost = true;

            @Override
            public void meet(Projection node) {
                if (!outermost) {
                    List<ProjectionElem> elements = new ArrayList<>(node.getProjectionElemList().getElements());
                    elements.sort(Comparator.comparing(ProjectionElem::getName));
                    node.getProjectionElemList().setElements(elements);
                }
                outermost = false;
                super.meet(node);
            }

            @Override
            public void meet(Extension node) {
                super.meet(node);
                List<ExtensionElem> elements = new ArrayList<>(node.getElements());
                if (elements.stream().allMatch(e -> e.getExpr() instanceof ValueConstant)) {
                    elements.sort(Comparator.comparing(ExtensionElem::getName));
                    List<ExtensionElem> distinct = new ArrayList<>();
                    for (ExtensionElem e : elements) {
                        ExtensionElem last = distinct.isEmpty() ? null : distinct.get(distinct.size() - 1);
                        if (last == null || !last.getName().equals(e.getName())
                                || !((ValueConstant) last.getExpr()).getValue().equals(((ValueConstant) e.getExpr()).getValue())) {
                            distinct.add(e);
                        }
                    }
                    node.setElements(distinct);
                }
            }
        });
        Map<String, String> names = new HashMap<>();
        return ANONYMOUS.matcher(TreeText.keyed(copy))
                .replaceAll(m -> names.computeIfAbsent(m.group(), k -> "_anon_" + names.size()));
    }
}
