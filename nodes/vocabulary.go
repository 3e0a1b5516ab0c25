package nodes

// generalWords are everyday English words that questions use to ask about a
// topic without naming it ("what type of profession", "born in which
// year"). A question whose only unmatched words are of this kind may still
// be answered by a passage; one whose names and rare words are missing is
// not. They weigh less in evidence, never zero.
var generalWords = toSet(`able about above according across act action active actor actress
actual actually add added addition after age ago agree air album all allow allowed almost
alone along already although always american among amount ancient and animal another answer
any anyone anything appear appeared apply area around art article artist ask asked author
available away back bad band base based battle beat became become becomes began begin
beginning behind being believe believed best better big biggest bigger birth born both
bought brand break bring brother brought build building built business buy call came
can capital car care career case cause caused center central century certain chain change
changed character charge child children choose church city claim class clear close closed
club cold college come comes coming common company compare compared complete completed
consider considered contain contains continue control cost could country county couple
course court cover create created creation current currently daughter day days dead deal
death decade decide decided department describe described design designed develop developed
did die died difference different direct directed director discover discovered do does
doing done down due during each early earlier earliest east eastern either else end ended
english enough entire episode era establish established even event events ever every
example examples exist exists expected fact fall family famous far father feature featured
few field fifth fight film final finally find first five follow followed following form
formed former found founded four fourth free french from front full game games general
get give given go goes going gone good government great greater greatest group groups grow
growing had half hand happen happened has have head held help high higher highest him his
historic history hold holds home house how however human idea include included includes
including increase individual information instead interest international into involved
its job join joined just keep kind known land language large larger largest last late
later latest lead leader leading league least leave led left less level life like line
list little live lived lives living local located location long longer longest lost
made main major make makes making man many mark married may mean meaning member members
men might million minister modern more most mostly mother move moved much music name
named names national nationality near nearly need never new news next night north
northern note now number numbers occupation occur of off office official often old older
oldest once one only open order organization original originally other others out over
own owned owner part parts party past people percent percentage period person place
placed play played player playing point popular population position possible power
president previous previously prior produce produced producer professional profession
program provide provided public published put question rather reach read real reason
receive received recent record recorded refer referred region release released remain
remained report reported result return returned right role run same school season second
see seen sell series serve served service set several share shared short should show
shown side similar since single site six small so some someone something sometimes son
song south southern special sport sports start started state states still story style
such suggest suggested support sure system take taken team term than that their them
then there these thing things think third this those though thought three through time
times title today together took top total town track true try turn twice two type types
under united until use used uses using usually various version very wanted war was way
week well went were west western what when where whether which while white who whole whom
whose why wide will win within without woman women won word words work worked working works
world would write writer written wrote year years yes yet young younger youngest`)
