package symbolic

// QuoteProp is quoteProp, for the reference writer of the tests.
var QuoteProp = quoteProp
