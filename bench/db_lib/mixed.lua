-- wrk script for bench/db's warm-up: the four tests in turn, so that every path is compiled
-- before any is measured.
local paths = { "/db", "/queries?queries=20", "/fortunes", "/updates?queries=20" }
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", paths[(n % #paths) + 1])
end
