module Greeting
  TEXT = "hello from the WAR"
end
