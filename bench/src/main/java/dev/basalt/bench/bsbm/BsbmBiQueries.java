package dev.basalt.bench.bsbm;

import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.basalt.bench.driver.QueryTemplate;
import dev.basalt.bench.rdf.Rng;

/**
 * The eight query templates of the BSBM V3 Business Intelligence use case (aggregation, grouping,
 * subqueries and large joins over the same dataset as the Explore mix), and their parameters drawn
 * from the generated data: the leaf type of a random product, a random product, producer,
 * country, and three consecutive months such that the two months BI3 compares lie within the
 * reviews' publication dates. Stateless: the templates are
 * immutable and {@link #draw} uses only its arguments, so any thread may call it with its own random
 * stream.
 */
public final class BsbmBiQueries {
	private static final String PREFIXES = """
			PREFIX bsbm: <http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/>
			PREFIX rev: <http://purl.org/stuff/rev#>
			PREFIX dc: <http://purl.org/dc/elements/1.1/>
			PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
			""";

	public static final List<QueryTemplate> ALL = List.of(
			q(1, "Product types most reviewed by reviewers of one country, for producers of another", """
					SELECT ?productType ?reviewCount WHERE {
					  { SELECT ?productType (COUNT(?review) AS ?reviewCount) WHERE {
					      ?productType a bsbm:ProductType .
					      ?product a ?productType .
					      ?product bsbm:producer ?producer .
					      ?producer bsbm:country %Country1% .
					      ?review bsbm:reviewFor ?product .
					      ?review rev:reviewer ?reviewer .
					      ?reviewer bsbm:country %Country2% .
					    } GROUP BY ?productType }
					}
					ORDER BY DESC(?reviewCount) ?productType
					LIMIT 10
					"""),
			q(2, "Products sharing the most features with a product", """
					SELECT ?otherProduct ?sameFeatures WHERE {
					  ?otherProduct a bsbm:Product .
					  FILTER(?otherProduct != %Product%)
					  { SELECT ?otherProduct (COUNT(?otherFeature) AS ?sameFeatures) WHERE {
					      %Product% bsbm:productFeature ?feature .
					      ?otherProduct bsbm:productFeature ?otherFeature .
					      FILTER(?feature = ?otherFeature)
					    } GROUP BY ?otherProduct }
					}
					ORDER BY DESC(?sameFeatures) ?otherProduct
					LIMIT 10
					"""),
			q(3, "Products with the largest rise of reviews from one month to the next", """
					SELECT ?product (xsd:float(?monthCount) / ?monthBeforeCount AS ?ratio) WHERE {
					  { SELECT ?product (COUNT(?review) AS ?monthCount) WHERE {
					      ?review bsbm:reviewFor ?product .
					      ?review dc:date ?date .
					      FILTER(?date >= "%Month1%"^^xsd:date && ?date < "%Month2%"^^xsd:date)
					    } GROUP BY ?product }
					  { SELECT ?product (COUNT(?review) AS ?monthBeforeCount) WHERE {
					      ?review bsbm:reviewFor ?product .
					      ?review dc:date ?date .
					      FILTER(?date >= "%Month0%"^^xsd:date && ?date < "%Month1%"^^xsd:date)
					    } GROUP BY ?product
					    HAVING (COUNT(?review) > 0) }
					}
					ORDER BY DESC(xsd:float(?monthCount) / ?monthBeforeCount) ?product
					LIMIT 10
					"""),
			q(4, "Features of a type with the highest price ratio with and without them", """
					SELECT ?feature (?withFeaturePrice / ?withoutFeaturePrice AS ?priceRatio) WHERE {
					  { SELECT ?feature (AVG(xsd:float(xsd:string(?price))) AS ?withFeaturePrice) WHERE {
					      ?product a %ProductType% ;
					               bsbm:productFeature ?feature .
					      ?offer bsbm:product ?product ;
					             bsbm:price ?price .
					    } GROUP BY ?feature }
					  { SELECT ?feature (AVG(xsd:float(xsd:string(?price))) AS ?withoutFeaturePrice) WHERE {
					      { SELECT DISTINCT ?feature WHERE {
					          ?p a %ProductType% ;
					             bsbm:productFeature ?feature .
					        } }
					      ?product a %ProductType% .
					      ?offer bsbm:product ?product ;
					             bsbm:price ?price .
					      FILTER NOT EXISTS { ?product bsbm:productFeature ?feature }
					    } GROUP BY ?feature }
					}
					ORDER BY DESC(?withFeaturePrice / ?withoutFeaturePrice) ?feature
					LIMIT 10
					"""),
			q(5, "Per country, the most reviewed products of a type and their average price", """
					SELECT ?country ?product ?nrOfReviews ?avgPrice WHERE {
					  { SELECT ?country (MAX(?nrOfReviews) AS ?maxReviews) WHERE {
					      { SELECT ?country ?product (COUNT(?review) AS ?nrOfReviews) WHERE {
					          ?product a %ProductType% .
					          ?review bsbm:reviewFor ?product ;
					                  rev:reviewer ?reviewer .
					          ?reviewer bsbm:country ?country .
					        } GROUP BY ?country ?product }
					    } GROUP BY ?country }
					  { SELECT ?country ?product (AVG(xsd:float(xsd:string(?price))) AS ?avgPrice) WHERE {
					      ?product a %ProductType% .
					      ?offer bsbm:product ?product .
					      ?offer bsbm:price ?price .
					    } GROUP BY ?country ?product }
					  { SELECT ?country ?product (COUNT(?review) AS ?nrOfReviews) WHERE {
					      ?product a %ProductType% .
					      ?review bsbm:reviewFor ?product .
					      ?review rev:reviewer ?reviewer .
					      ?reviewer bsbm:country ?country .
					    } GROUP BY ?country ?product }
					  FILTER(?nrOfReviews = ?maxReviews)
					}
					ORDER BY DESC(?nrOfReviews) ?country ?product
					"""),
			q(6, "Reviewers rating a producer's products far above their average", """
					SELECT ?reviewer (AVG(xsd:float(?score)) AS ?reviewerAvgScore) WHERE {
					  { SELECT (AVG(xsd:float(?score)) AS ?avgScore) WHERE {
					      ?product bsbm:producer %Producer% .
					      ?review bsbm:reviewFor ?product .
					      { ?review bsbm:rating1 ?score . } UNION { ?review bsbm:rating2 ?score . } UNION
					      { ?review bsbm:rating3 ?score . } UNION { ?review bsbm:rating4 ?score . }
					    } }
					  ?product bsbm:producer %Producer% .
					  ?review bsbm:reviewFor ?product .
					  ?review rev:reviewer ?reviewer .
					  { ?review bsbm:rating1 ?score . } UNION { ?review bsbm:rating2 ?score . } UNION
					  { ?review bsbm:rating3 ?score . } UNION { ?review bsbm:rating4 ?score . }
					}
					GROUP BY ?reviewer
					HAVING (AVG(xsd:float(?score)) > MIN(?avgScore) * 1.5)
					"""),
			q(7, "Most offered products of a type without an offer from a country's vendors", """
					SELECT ?product WHERE {
					  { SELECT ?product WHERE {
					      { SELECT ?product (COUNT(?offer) AS ?offerCount) WHERE {
					          ?product a %ProductType% .
					          ?offer bsbm:product ?product .
					        } GROUP BY ?product }
					    }
					    ORDER BY DESC(?offerCount)
					    LIMIT 1000 }
					  FILTER NOT EXISTS {
					    ?offer bsbm:product ?product .
					    ?offer bsbm:vendor ?vendor .
					    ?vendor bsbm:country ?country .
					    FILTER(?country = %Country%)
					  }
					}
					"""),
			q(8, "Vendors with the largest share of offers below a product's average price", """
					SELECT ?vendor (xsd:float(?belowAvg) / ?offerCount AS ?cheapExpensiveRatio) WHERE {
					  { SELECT ?vendor (COUNT(?offer) AS ?belowAvg) WHERE {
					      { ?product a %ProductType% .
					        ?offer bsbm:product ?product .
					        ?offer bsbm:vendor ?vendor .
					        ?offer bsbm:price ?price .
					        { SELECT ?product (AVG(xsd:float(xsd:string(?price))) AS ?avgPrice) WHERE {
					            ?product a %ProductType% .
					            ?offer bsbm:product ?product .
					            ?offer bsbm:vendor ?vendor .
					            ?offer bsbm:price ?price .
					          } GROUP BY ?product }
					      } .
					      FILTER(xsd:float(xsd:string(?price)) < ?avgPrice)
					    } GROUP BY ?vendor }
					  { SELECT ?vendor (COUNT(?offer) AS ?offerCount) WHERE {
					      ?product a %ProductType% .
					      ?offer bsbm:product ?product .
					      ?offer bsbm:vendor ?vendor .
					    } GROUP BY ?vendor }
					}
					ORDER BY DESC(xsd:float(?belowAvg) / ?offerCount) ?vendor
					LIMIT 10
					"""));

	/**
	 * BI3 compares the reviews published (dc:date) in month Month1 with those of the month before,
	 * Month0. Reviews are published in the {@link BsbmModel#REVIEW_DAYS} days up to the dataset's
	 * current date, so both months are whole months of that range: Month0 from the first whole month
	 * after its start, Month1 at the latest the last whole month before the current date.
	 */
	static final LocalDate FIRST_MONTH0 = BsbmModel.CURRENT_DATE.minusDays(BsbmModel.REVIEW_DAYS).withDayOfMonth(1).plusMonths(1);
	static final LocalDate LAST_MONTH0 = BsbmModel.CURRENT_DATE.withDayOfMonth(1).minusMonths(2);
	private static final int MONTH0_CHOICES = (int) FIRST_MONTH0.until(LAST_MONTH0).toTotalMonths() + 1;

	private BsbmBiQueries() {
	}

	private static QueryTemplate q(int n, String title, String body) {
		return new QueryTemplate("BI" + n, title, PREFIXES + body);
	}

	/**
	 * The placeholder values (rendered as SPARQL terms, months as lexical dates) of BI query
	 * {@code number} over the data of {@code model}.
	 */
	public static Map<String, String> draw(BsbmModel model, int number, SplittableRandom r) {
		Map<String, String> p = new HashMap<>();
		// products are typed with their leaf type only, so the drawn type is a random product's leaf type
		p.put("ProductType", iri(BsbmModel.productTypeIri(model.product(Rng.between(r, 1, model.products)).leafType())));
		p.put("Product", iri(model.productIri(Rng.between(r, 1, model.products))));
		p.put("Producer", iri(BsbmModel.producerIri(Rng.between(r, 1, model.producers()))));
		p.put("Country", country(r));
		p.put("Country1", country(r));
		p.put("Country2", country(r));
		LocalDate month0 = FIRST_MONTH0.plusMonths(r.nextInt(MONTH0_CHOICES));
		p.put("Month0", month0.toString());
		p.put("Month1", month0.plusMonths(1).toString());
		p.put("Month2", month0.plusMonths(2).toString());
		if (number < 1 || number > ALL.size()) {
			throw new IllegalArgumentException("BSBM Business Intelligence has queries 1..8, not " + number);
		}
		return p;
	}

	private static String country(SplittableRandom r) {
		return iri(BsbmVocabulary.COUNTRIES + BsbmDistributions.COUNTRY_CODES[r.nextInt(BsbmDistributions.COUNTRY_CODES.length)]);
	}

	private static String iri(String s) {
		return '<' + s + '>';
	}
}
