package nodes

import (
	"regexp"

	"github.com/graphrag/graphrag"
)

// rule is one high-precision routing pattern.
type rule struct {
	Route   graphrag.Route
	Pattern *regexp.Regexp
	Reason  string
	// MaxTopic, when set, is how many topic words (content words that are
	// not numbers or units) the query may have: "what is 100 times 55"
	// is arithmetic, a long question that contains "2-6" is not.
	MaxTopic int
}

// rules are checked in order; the first match decides. They cover what a
// linear model over few exemplars gets wrong and what must never depend on
// the corpus: fresh information goes to the web, arithmetic is computed,
// questions about the files themselves go to the file tools.
var rules = []rule{
	{graphrag.RouteFilesystem, regexp.MustCompile(`(?i)(\b(how many|count( the)?|number of|list|show|display|find|locate|search( for)?|which|where is|print|what)\b.{0,40}\b(files?|pdfs|docs|documents|folders?|directory|directories|images|photos|spreadsheets|notes)\b.{0,40}\b(do i have|are there|in (my|the|this|current)|under|named|called|ending|modified|changed|created|added|edited|larger|bigger|smaller|largest|biggest|newest|recent(ly)?|older|size|sizes|sorted|tree|owned|permissions?|empty|hidden|i have)\b|\b(folder|directory) (tree|structure)\b|\b(largest|biggest|newest|most recent(ly)?( modified)?|recently modified|last modified) (files?|folders?|documents)\b|^\s*(ls|du|find|wc|stat|tree|locate)\s+[-.~/\w]|\b(search|find|locate|look for)\b.{0,30}\b(file ?system|home (directory|folder)|current (directory|folder)|my (computer|disk|drive))\b)`), "a question about the files themselves", 0},
	{graphrag.RouteFilesystem, regexp.MustCompile(`(?i)(\b(how (big|large)|size of|when (was|did i) .{0,30}(modified|edited|changed|created|saved|last)|last (edit|modified|change)|(which|what) (folder|directory)|where (did i (save|put)|is (the|my) file))\b.{0,40}\b[\w-]+\.(pdf|docx?|xlsx?|pptx?|csv|txt|md|json|ya?ml|html?|go|py|js|png|jpe?g|zip|mp3|mp4)\b|\b(what|which|anything|things|files?|documents?|pictures|photos|videos|items)\b.{0,25}\b(did i|i('ve| have)?) (save|saved|download|downloaded|edit|edited|create|created|add|added|modify|modified|change|changed|work on|worked on)\b|\b(total )?number of (pdfs?|files|documents|items|photos|pictures|notes)\b|\b(in|of) (my )?(downloads|desktop)( folder)?\b)`), "a question about the files themselves", 0},
	{graphrag.RouteVector, regexp.MustCompile(`(?i)\b(my|our) (notes?|files|documents|docs|papers|emails|journal|itinerary|wiki|handbook|manuals?|records|contracts?|lease)\b.{0,30}\b(say|said|mention|mentions|about|on)\b|\b(according to|in|from) (my|our) (notes?|files|documents|docs|papers|emails|journal|itinerary|wiki|handbook|manuals?|records|contracts?|lease|[\w-]+ notes)\b`), "the question points at your own files", 0},
	{graphrag.RouteWeb, regexp.MustCompile(`(?i)\b(weather|forecast|temperature outside|rain(ing)? (today|tomorrow|tonight)|snow(ing)? (today|tomorrow|tonight)|umbrella)\b`), "asks for the weather: fresh information", 0},
	{graphrag.RouteWeb, regexp.MustCompile(`(?i)\b(traffic|road closures?|commute time)\b|\b(trains?|flights?|bus(es)?|ferry|ferries)\b.{0,40}\b(delayed|delays|cancell?ed|running late|on time)\b`), "asks about traffic or delays: fresh information", 0},
	{graphrag.RouteWeb, regexp.MustCompile(`(?i)\b(flight status|status of (my|the) .{0,30}flight|flight .{0,20}(delayed|on time|land|depart)|(my|the) .{0,30}flight (be|is) on time)\b`), "asks for a flight status: fresh information", 0},
	{graphrag.RouteWeb, regexp.MustCompile(`(?i)\b(exchange rate|(yen|euros?|dollars?|pounds sterling|pesos?|francs?|rupees?|yuan|won|rubles?|bitcoin|usd|eur|gbp|jpy|mxn|cad|aud|chf|cny|inr)\b.{0,40}\b(in|to|into|worth|is how many)\b.{0,20}\b(yen|euros?|dollars?|pounds?|pesos?|francs?|rupees?|yuan|won|rubles?|usd|eur|gbp|jpy|mxn|cad|aud|chf|cny|inr|canadian dollars|us dollars?)|how many .{0,20}(yen|euros?|dollars?|pesos?|francs?|rupees?) (are )?in (a|one|\d+))`), "asks for a currency conversion: rates change daily", 0},
	{graphrag.RouteWeb, regexp.MustCompile(`(?i)\b(travel (alerts?|warnings?|advisor(y|ies))|safe (for me )?(to (go|travel)|going) to)\b`), "asks for travel alerts: fresh information", 0},
	{graphrag.RouteWeb, regexp.MustCompile(`(?i)\b(stock price|share price|price of (bitcoin|gold|oil|gas)|headlines|breaking news|latest news|news (today|about)|(game|match) (last night|today|tonight)|score of the|who won the (game|match|race)|search the web|on the web|online)\b`), "asks for news, prices or scores: fresh information", 0},
	{graphrag.RouteDirect, arithmeticPattern, "arithmetic: computed directly", 2},
	{graphrag.RouteDirect, regexp.MustCompile(`(?i)\b(how many|convert|conversion (between|from)|what is)\b.{0,30}\b(cm|centimet(er|re)s?|inch(es)?|feet|foot|miles?|kilomet(er|re)s?|km|met(er|re)s?|pounds|lbs?|kilos?|kilograms?|grams?|ounces?|oz|cups?|tablespoons?|teaspoons?|liters?|litres?|gallons?|pints?|quarts?|celsius|fahrenheit|seconds|minutes|hours|days)\b.{0,30}\b(in|to|into|and|per)\b`), "unit conversion: computed directly", 3},
	{graphrag.RouteDirect, regexp.MustCompile(`(?i)^\s*(hi|hello|hey|howdy|yo|good (morning|afternoon|evening|night)|thanks?( you)?|thank you|bye|goodbye|see you|cheers|ok(ay)?|much appreciated|appreciate it)\b[\s,!.]*(there|so much|a lot|very much|for (the|your) \w+|later|now|again|what's up|how are you|much appreciated|i appreciate it)?[\s!.?]*$`), "greeting or thanks: small talk", 0},
	{graphrag.RouteDirect, regexp.MustCompile(`(?i)\b(tell me a joke|any jokes|a joke|make me laugh|(your|you) (name|age|birthday)|call you|are you (a )?(bot|robot|human|real|ai)|talking to a (real|live|bot|person)|is this a bot|who (made|built|created|programmed|designed) you|(designed|made|built|created) by\b.{0,10}$|how old (are|will) you|what can you do|you can (do|help)|questions (can )?i (can )?ask you|(things|subjects|topics) you like|meaning of life|answer to it all|how (are|is) (you|the ai)|great to (talk|speak)|good to (talk|speak)|nice (talking|to talk)|i'?m going now|that's all i need|grateful for|given me so much)\b`), "small talk about the assistant", 0},
	{graphrag.RouteDirect, regexp.MustCompile(`(?i)\b(how (do|would|might|can) (i|you|they|we) (say|spell)|how to spell|spell the word|spell \w+$|what does (the word )?"?[\w'-]+"? mean|meaning of (the word )?"?[\w'-]+"?$|what's the meaning of|define \w+|definition of|synonym (for|of)|opposite of|translate)\b`), "definition, spelling or translation: answered directly", 0},
	{graphrag.RouteDirect, regexp.MustCompile(`(?i)^(what('s| is) (the )?(time|date|day)( is it)?( today| now)?|what time is it)\??$`), "asks for the time or date", 0},
	{graphrag.RouteHybrid, identifierPattern, "an exact identifier: keyword and vector search together", 0},
	{graphrag.RouteHybrid, fileNamePattern, "a file name: keyword and vector search together", 0},
}

// matchRule returns the first rule that matches the query.
func matchRule(query string) (rule, bool) {
	masked := maskIdentifiers(query)
	for _, r := range rules {
		// Direct rules see the query with its identifiers masked
		// (maskIdentifiers): "INV-2024-0117" is not a subtraction.
		q := query
		if r.Route == graphrag.RouteDirect {
			q = masked
		}
		if r.Pattern.MatchString(q) && (r.MaxTopic == 0 || topicWords(query) <= r.MaxTopic) {
			return r, true
		}
	}
	return rule{}, false
}

// unitWords are the words of arithmetic and unit conversion.
var unitWords = toSet(`cm centimeter centimeters centimetre centimetres inch inches feet foot mile miles
kilometer kilometers kilometre kilometres km meter meters metre metres pound pounds lb lbs kilo kilos
kilogram kilograms gram grams ounce ounces oz cup cups tablespoon tablespoons teaspoon teaspoons liter
liters litre litres gallon gallons pint pints quart quarts celsius fahrenheit second seconds minute
minutes hour hours day days plus minus times multiplied divided power square root squared cubed percent
convert conversion need use`)

// topicWords counts the content words of a query that are not numbers or
// units.
func topicWords(query string) int {
	n := 0
	for _, t := range contentTerms(query) {
		if !unitWords[t.Word] && !t.isNumber() {
			n++
		}
	}
	return n
}
