def greet(name):
    return "Hello, " + name


def farewell(name):
    return "Goodbye, " + name
