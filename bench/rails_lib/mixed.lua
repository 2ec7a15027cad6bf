-- wrk script for bench/rails: requests alternate between the hello and the JSON action, so the
-- warm-up compiles both paths (a real app's endpoints run side by side, not one after another).
local paths = { "/", "/json/21" }
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", paths[(n % 2) + 1])
end
