# The hello-world Rack app every server in bench/run serves (nettyrack and Puma alike;
# bench/RawNettyHello.java answers with the same status, header and body).
run ->(env) { [200, {"content-type" => "text/plain"}, ["Hello, World!"]] }
