"""Computer players built on :mod:`ddsolver`: bidding with explanations
(:mod:`ai.bidding`) and inference of hidden hands from the auction (:mod:`ai.inference`)."""
