#include "tgraph.h"
int main(void){return 0;}
